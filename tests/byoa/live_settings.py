"""
Settings of the daphne process the BYOA end-to-end tests run: the project's
own, plus the test manifests, a short hello timeout, and a test-only view that
calls the wallet of the requesting browser session (as a demo page would).
"""

from pathlib import Path

from sites.config.settings import *  # noqa: F403

_MANIFESTS = Path(__file__).parent / "manifests"

ROOT_URLCONF = "tests.byoa.live_urls"
BYOA = {
    **BYOA,  # noqa: F405
    "MANIFESTS": {"geo": str(_MANIFESTS / "geo.json"), "quiz": str(_MANIFESTS / "quiz.json")},
    "DEFAULT_MANIFEST": "geo",
    "HELLO_SECONDS": 1,
}
