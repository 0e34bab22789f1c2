"""
Settings of the daphne process the BYOA end-to-end tests run: the project's
own, plus the test manifests, a short hello timeout, and a test-only view that
calls the wallet of the requesting browser session (as a demo page would).

DEBUG is on: this server is a local development server on 127.0.0.1, and its
links carry ws://127.0.0.1:<port>/byoa/ws, which the server builds only with
DEBUG on and the wallet accepts only with its developer switch (the
direct_wallet fixture's dev_local=True, i.e. BYOA_WALLET_DEV_LOCAL=1): the same
pair of switches a developer uses. Without it, POST /byoa/code answers 500.
"""

from pathlib import Path

from sites.config.settings import *  # noqa: F403

_MANIFESTS = Path(__file__).parent / "manifests"

DEBUG = True
ROOT_URLCONF = "tests.byoa.server_urls"
BYOA = {
    **BYOA,  # noqa: F405
    "MANIFESTS": {"geo": str(_MANIFESTS / "geo.json"), "quiz": str(_MANIFESTS / "quiz.json")},
    "DEFAULT_MANIFEST": "geo",
    "HELLO_SECONDS": 1,
}
