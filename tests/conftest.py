"""Fixtures shared across the test tree. The test wallet's own fixtures
(daphne_server, byoa_hub, Chromium launch settings) come from its pytest plugin."""

import io

import pytest
from django.core.management import call_command

# Fixtures used across the tree, registered once: a session fixture imported into
# several test modules would be a fixture of each, each starting its own servers.
pytest_plugins = [
    "tests.testwallet.relay.model_double",
    "tests.twentyq.player",
    "tests.testwallet.aiwallet_cases",
]


@pytest.fixture
def catalog(db):
    """Load the demo catalog into the test database."""
    call_command("load_catalog", stdout=io.StringIO())  # its progress lines are no test's business


@pytest.fixture(autouse=True)
def hub(byoa_hub):
    """Give every test a fresh BYOA hub (testwallet's byoa_hub): nothing one test starts runs into the next."""
    return byoa_hub


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # `--dist loadgroup` (Makefile) tells the controller a test's xdist_group by a suffix that
    # pytest-xdist's worker adds to its node id. With pytest 9.2's structured node ids the suffix
    # is silently lost (pytest-xdist#1386), and a group's clusters and fault tests then run on
    # every worker at once. Such a test fails, saying so, rather than run that way.
    if getattr(config.option, "loadgroup", False):
        for item in items:
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid:
                item.stash[_UNGROUPED] = True


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.stash.get(_UNGROUPED, False):
        pytest.fail(
            "--dist loadgroup did not keep this test's xdist_group on one worker: this pytest-xdist "
            "cannot mark groups under this pytest (pytest-xdist#1386; the dev extra pins pytest)",
            pytrace=False,
        )


_UNGROUPED = pytest.StashKey[bool]()
