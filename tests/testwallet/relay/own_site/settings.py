"""A site's own settings, as the tutorial's site has them, with DEBUG on: the project's, plus one page of its own."""

from pathlib import Path

from sites.config.settings import *  # noqa: F403

DEBUG = True
ROOT_URLCONF = "tests.testwallet.relay.own_site.urls"
TEMPLATES[0]["DIRS"] = [Path(__file__).parent / "templates"]  # noqa: F405  (not the demos' base template)
