import pytest

from testwallet.server import DaphneServer


@pytest.fixture(scope="module")
def debug_site(tmp_path_factory):
    """The project under daphne with DEBUG on (as `make run`), so that `?testwallet=1` works."""
    server = DaphneServer(
        "sites.config.asgi:application",
        setup_commands=[("migrate", "--noinput"), ("load_catalog",)],
        env={"DJANGO_DEBUG": "1"},
        workdir=tmp_path_factory.mktemp("debug-site-daphne"),
    )
    with server:
        yield server
