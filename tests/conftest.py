"""Fixtures shared across the test tree. The test wallet's own fixtures
(daphne_server, Chromium launch settings) come from its pytest plugin."""

import pytest
from django.core.management import call_command


@pytest.fixture
def catalog(db):
    """Load the demo catalog into the test database."""
    call_command("load_catalog", stdout=open("/dev/null", "w"))
