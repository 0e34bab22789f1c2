"""
Settings of the daphne process the Twenty Questions server tests run: the
project's own, with calls to a wallet bounded by 2 seconds so that a wallet
that never answers is seen to time out within a test.
"""

from sites.config.settings import *  # noqa: F403

BYOA = {**BYOA, "CALL_SECONDS": 2}  # noqa: F405

# Links to ws://127.0.0.1 are built only in DEBUG (a real site's endpoint is wss:// on a public name).
DEBUG = True
