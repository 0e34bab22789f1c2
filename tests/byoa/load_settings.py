"""
Settings of the server the load tests run: the end-to-end tests' own
(tests/byoa/server_settings.py) with the production hello timeout. Under a flood
a server may take more than the end-to-end tests' 1 s to read a hello that came
in time; the 10 s default is what a deployment runs.
"""

from byoa.conf import DEFAULTS
from tests.byoa.server_settings import *  # noqa: F403

BYOA = {**BYOA, "HELLO_SECONDS": DEFAULTS["HELLO_SECONDS"]}  # noqa: F405
