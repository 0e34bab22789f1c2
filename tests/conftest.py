"""Fixtures shared across the test tree. The test wallet's own fixtures
(daphne_server, Chromium launch settings) come from its pytest plugin."""

import io

import pytest
from django.core.management import call_command

# How xdist shares the tests among workers (tests.scheduling), and fixtures used across the
# tree, registered once: a session fixture imported into several test modules would be a
# fixture of each, each starting its own servers.
pytest_plugins = [
    "tests.scheduling",
    "tests.testwallet.relay.model_double",
    "tests.twentyq.player",
    "tests.testwallet.aiwallet_cases",
    "tests.service_fixtures",
]


def pytest_configure(config):
    # Django's own advice for a test suite ("Speeding up the tests"): the tests' users are made and
    # logged in with a fast hasher, not the production one built to be slow. The live servers the
    # tests start keep the project's settings.
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# What a test uses says what it needs, whether or not its module's marks say so: a test that asks,
# through any fixture, for Playwright's browser drives Chromium, and one that asks for a server
# process is live. `make test-quick` (-m "not browser and not live and not slow") counts on it.
FIXTURE_MARKS = {
    "browser": "browser",
    "daphne_server": "live",
    "postgres_server": "live",
    "redis_server": "live",
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by mark
def pytest_collection_modifyitems(items):
    for item in items:
        for fixture in FIXTURE_MARKS.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(FIXTURE_MARKS[fixture])


@pytest.fixture
def catalog(db):
    """Load the demo catalog into the test database."""
    call_command("load_catalog", stdout=io.StringIO())  # its progress lines are no test's business
