"""Fixtures shared across the test tree. The test wallet's own fixtures
(daphne_server, byoa_hub, Chromium launch settings) come from its pytest plugin."""

import pytest
from django.core.management import call_command


@pytest.fixture
def catalog(db):
    """Load the demo catalog into the test database."""
    call_command("load_catalog", stdout=open("/dev/null", "w"))


@pytest.fixture(autouse=True)
def hub(byoa_hub):
    """Give every test a fresh BYOA hub (testwallet's byoa_hub): nothing one test starts runs into the next."""
    return byoa_hub
