"""
The pytest plugin of the test wallet, registered as a ``pytest11`` entry point: installing this
package gives a site's own test suite its fixtures (``daphne_server``, ``aiwallet``,
``byoa_extension``, ``direct_wallet``, ``browser_agent``, ``testwallet_cassette``,
``builtin_model``, ``browser_type_launch_args``) and the ini options ``daphne_application`` and
``daphne_setup_commands``.

Each fixture and option: docs/reference/fixtures.md (``pytest --fixtures`` prints the same).
"""

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Awaitable, Generator, Iterator
from typing import TYPE_CHECKING, Any, Protocol

import pytest

# Strict-mode projects need pytest-asyncio's own decorator for an async fixture (the wallet
# drivers below need pytest-asyncio too).
from pytest_asyncio import fixture as _async_fixture

from testwallet import aiwallet, chromium, extension, languagemodel, setup_cache, sync_api
from testwallet.cassette import fixtures as cassette_fixtures
from testwallet.preflight import Misconfigured, asgi_application, check_own_database
from testwallet.server import DaphneServer
from testwallet.webmcp import agent as webmcp_agent
from testwallet.webmcp import sync as webmcp_sync

if TYPE_CHECKING:
    from testwallet.direct import DirectWallet
    from testwallet.direct.backends import Answer, SkillBackend


def pytest_configure(config: pytest.Config) -> None:
    # pytest-base-url (pulled in by pytest-playwright) defines its session
    # fixture on a class, which pytest 9 warns about in every run of a site.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning",
    )
    # Registered here, after every entry-point plugin has loaded, so that
    # chromium's browser_type_launch_args overrides pytest-playwright-asyncio's
    # own; the wallet fixtures live beside their drivers.
    config.pluginmanager.register(chromium, "testwallet-chromium")
    if config.pluginmanager.has_plugin("playwright"):  # pytest-playwright: sync tests, the sync faces
        config.pluginmanager.register(sync_api, "testwallet-sync")
        config.pluginmanager.register(webmcp_sync, "testwallet-webmcp")
    else:
        config.pluginmanager.register(aiwallet, "testwallet-aiwallet")
        config.pluginmanager.register(extension, "testwallet-byoa")
        config.pluginmanager.register(webmcp_agent, "testwallet-webmcp")
    config.pluginmanager.register(languagemodel, "testwallet-languagemodel")
    cassette_fixtures.configure(config)
    config.pluginmanager.register(cassette_fixtures, "testwallet-cassette")
    # One cache of the servers' set-up per session (testwallet.setup_cache): made here, before
    # pytest-xdist starts its workers, which inherit the variable and share it.
    if setup_cache.ENVIRONMENT_VARIABLE not in os.environ:
        root = tempfile.mkdtemp(prefix="testwallet-setup-")
        os.environ[setup_cache.ENVIRONMENT_VARIABLE] = root
        config.stash[_SETUP_CACHE_KEY] = root


def pytest_unconfigure(config: pytest.Config) -> None:
    root = config.stash.get(_SETUP_CACHE_KEY, None)
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)
        os.environ.pop(setup_cache.ENVIRONMENT_VARIABLE, None)


def pytest_addoption(parser: pytest.Parser) -> None:
    cassette_fixtures.add_options(parser)
    parser.addini("daphne_application", "Dotted path of the ASGI app (module:attribute).", default="")
    parser.addini(
        "daphne_setup_commands",
        "manage.py commands run on the live server's database before it starts, one per line.",
        type="linelist",
        default=["migrate --noinput"],
    )


@pytest.fixture(scope="session")
def daphne_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DaphneServer]:
    """Serve the project with a real daphne process for the whole session."""
    settings_module = os.environ.get("DJANGO_SETTINGS_MODULE")
    try:
        server = DaphneServer(
            asgi_application(request.config, settings_module),
            settings_module=settings_module,
            setup_commands=[line.split() for line in request.config.getini("daphne_setup_commands")],
            workdir=tmp_path_factory.mktemp("daphne"),
        )
        # Before any set-up command: with settings that ignore DATABASE_URL they
        # would migrate and load data into the developer's own database.
        check_own_database(server)
    except Misconfigured as error:
        # From None: a plain pytest.fail() here chained to the error, and pytest printed the
        # message twice, around "During handling of the above exception".
        raise pytest.fail.Exception(str(error), pytrace=False) from None
    request.config.stash[_SERVER_KEY] = server
    with server:
        yield server


_SERVER_KEY = pytest.StashKey[DaphneServer]()
_SETUP_CACHE_KEY = pytest.StashKey[str]()


class OpenLink(Protocol):
    """What ``direct_wallet`` gives a test: ``await direct_wallet(link, script_or_backend, **options)``."""

    def __call__(
        self,
        link: str,
        backend: "SkillBackend | dict[str, Answer] | None" = None,
        *,
        dev_local: bool = True,
        **options: Any,
    ) -> Awaitable["DirectWallet"]: ...


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    server = item.config.stash.get(_SERVER_KEY, None)
    if report.failed and server is not None and "daphne_server" in getattr(item, "fixturenames", ()):
        report.sections.append(("daphne output", server.output()[-20000:]))
    return report


@_async_fixture
async def direct_wallet() -> AsyncIterator["OpenLink"]:
    """Open ``bringyourownagent://`` links with headless wallets (``testwallet.direct``).

    ``await direct_wallet(link, {"audio.transcribe": {"text": "Peru"}})`` checks
    the link, allows it, connects and returns the ``DirectWallet`` (its
    ``opened`` says whether the site welcomed it). The second argument is a
    script for a ``ScriptedBackend`` or any backend; other keywords go to
    ``DirectWallet`` (``consent=``, ``limits=`` ...). ws://localhost is allowed,
    since the site under test runs on loopback. Every wallet says bye after the test.
    """
    from testwallet.direct import DirectWallet, ScriptedBackend

    wallets: list[DirectWallet] = []

    async def open_link(
        link: str,
        backend: "SkillBackend | dict[str, Answer] | None" = None,
        *,
        dev_local: bool = True,
        **options: Any,
    ) -> DirectWallet:
        if backend is None or isinstance(backend, dict):
            backend = ScriptedBackend(backend or {})
        wallet = DirectWallet(backend, dev_local=dev_local, **options)
        wallets.append(wallet)
        wallet.opened = await wallet.open(link)
        return wallet

    yield open_link
    for wallet in wallets:
        await wallet.close()
