"""
This repository's PostgreSQL and Redis for its tests (tests/services.py), as session fixtures.

- ``postgres_server`` / ``redis_server``: a private PostgreSQL / Redis from Debian's packages on
  a free loopback port, shared by the session (``.url``); a test that stops or restarts one makes
  its own. They skip, saying how to install, when the package is missing; a failing test that
  used one gets its output in the report.

Registered by tests/conftest.py (``pytest_plugins``). Not the test wallet's: a site's suite
takes its databases from its own setup (pytest-django's test database, or a plugin such as
pytest-postgresql), not from ours.
"""

from collections.abc import Callable, Generator, Iterator

import pytest

from tests.services import PostgresServer, RedisServer, ServiceMissing

_SERVICES_KEY = pytest.StashKey[dict[str, PostgresServer | RedisServer]]()


def _service[S](kind: Callable[[], S]) -> S:
    try:
        return kind()
    except ServiceMissing as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    """Run a private PostgreSQL (Debian's package) for the session; its ``url`` is a DATABASE_URL."""
    with _service(PostgresServer) as server:
        request.config.stash.setdefault(_SERVICES_KEY, {})["postgres_server"] = server
        yield server


@pytest.fixture(scope="session")
def redis_server(request: pytest.FixtureRequest) -> Iterator[RedisServer]:
    """Run a private Redis (Debian's package) for the session; its ``url`` is a REDIS_URL."""
    with _service(RedisServer) as server:
        request.config.stash.setdefault(_SERVICES_KEY, {})["redis_server"] = server
        yield server


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        for name, service in item.config.stash.get(_SERVICES_KEY, {}).items():
            if name in getattr(item, "fixturenames", ()):
                report.sections.append((f"{name} output", service.output()[-20000:]))
    return report
