"""The clusters of the deployment tests: PostgreSQL, Redis, uvicorn processes and nginx (deploy.cluster)."""

import dataclasses

import pytest

from deploy.cluster import PRODUCTION_LIMITS

ADMIN = ("admin", "a-password-for-the-cluster-tests")

# Every visitor, wallet and admin of these tests comes from one address, 127.0.0.1, many of
# them within seconds: under the production per-address rates the group's POSTs (2 a second
# after a burst of 40) ran out when the machine ran the tests faster, and a later test got
# nginx's 429. The limits themselves are tested on their own (test_limits.py).
ONE_ADDRESS_MANY_VISITORS = dataclasses.replace(
    PRODUCTION_LIMITS,
    code_rate="100r/s",
    mcp_rate="100r/s",
    post_rate="100r/s",
    post_burst=1000,
    wallet_open_rate="100r/s",
)


@pytest.fixture(scope="session")
def cluster(request):
    """Run the project as deployed, with the BYOA test manifests and test views (tests/byoa/server_settings.py)."""
    from deploy.cluster import Cluster
    from tests.services import ServiceMissing

    setup = [
        ("migrate", "--noinput"),
        ("load_catalog",),
        ("createsuperuser", "--noinput", "--username", ADMIN[0], "--email", "admin@example.com"),
    ]
    try:
        cluster = Cluster(
            processes=3,
            settings_module="tests.byoa.server_settings",
            setup_commands=setup,
            env={"DJANGO_SUPERUSER_PASSWORD": ADMIN[1]},
            limits=ONE_ADDRESS_MANY_VISITORS,
        )
        cluster.start()
    except ServiceMissing as error:
        pytest.skip(str(error))
    request.config.stash.setdefault(_CLUSTERS, {})["cluster"] = cluster
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def production_cluster(request):
    """Run the project's own settings with DEBUG off on two processes, as a deployment does (minus TLS)."""
    from deploy.cluster import Cluster
    from tests.services import ServiceMissing

    setup = [("migrate", "--noinput"), ("load_catalog",)]
    try:
        cluster = Cluster(
            processes=2, setup_commands=setup, env={"DJANGO_DEBUG": "0"}, limits=ONE_ADDRESS_MANY_VISITORS
        )
        cluster.start()
    except ServiceMissing as error:
        pytest.skip(str(error))
    request.config.stash.setdefault(_CLUSTERS, {})["production_cluster"] = cluster
    yield cluster
    cluster.stop()


_CLUSTERS = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        for name, cluster in item.config.stash.get(_CLUSTERS, {}).items():
            if name in getattr(item, "fixturenames", ()):
                report.sections.append((f"{name} output", cluster.output()))
    return report
