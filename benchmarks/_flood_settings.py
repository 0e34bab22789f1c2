"""
Settings of ``ws_flood.py``'s server: the BYOA end-to-end tests' (their test page and caller)
with DEBUG off, as a deployment runs. With DEBUG off a link must name a wss:// endpoint, so
links name one that is never dialled: the flooders take only the link's code and open the
server's socket themselves.
"""

from tests.byoa.server_settings import *  # noqa: F403

DEBUG = False
BYOA = {**BYOA, "ENDPOINT": "wss://flood.invalid/byoa/ws"}  # noqa: F405
