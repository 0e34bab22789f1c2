"""
Settings of the daphne processes of the fault tests (tests/byoa/test_faults.py):
the end-to-end tests' own, with the ping interval short enough that a silent
wallet shows within a test's seconds.
"""

from tests.byoa.server_settings import *  # noqa: F403

ROOT_URLCONF = "tests.byoa.fault_urls"
BYOA = {
    **BYOA,  # noqa: F405
    "PING_SECONDS": 1,  # the fault tests' wallets ping every PING_EVERY (tests/byoa/test_faults.py)
}
