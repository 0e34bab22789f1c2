"""Fixtures shared by the BYOA tests: test manifests, codes, wallet sockets."""

import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from byoa import calls, clock
from byoa.consumers import WalletConsumer
from byoa.models import Pairing
from byoa.pairing import codes, manifests, pairings
from byoa.wire import protocol
from tests import loopback

MANIFESTS = Path(__file__).parent / "manifests"
TEST_BYOA = {
    "MANIFESTS": {"geo": str(MANIFESTS / "geo.json"), "quiz": str(MANIFESTS / "quiz.json")},
    "DEFAULT_MANIFEST": "geo",
}


@pytest.fixture(autouse=True)
def byoa_settings(settings):
    """Install the test manifests (and nothing else) for every BYOA test."""
    settings.BYOA = dict(TEST_BYOA)
    return settings


def grant(skills=("audio.transcribe",), minutes=60, **extra):
    """Return a grant as a wallet's hello carries it."""
    expires = datetime.now(UTC) + timedelta(minutes=minutes)
    return {"skills": list(skills), "expiresAt": expires.strftime("%Y-%m-%dT%H:%M:%SZ"), **extra}


def hello(session=None, pairing=None, **grant_options):
    return protocol.hello(session, pairing, {"name": "test wallet", "version": "0.1"}, grant(**grant_options))


@pytest.fixture
def caller_elsewhere(monkeypatch):
    """Make this process's calls reach its wallet connections as another process's would: by channel.

    ``byoa.calls`` and ``byoa.pairing.pairings`` look a connection up in this process's
    registry first; with an empty one they read its channel from the database
    and send the call over the channel layer, as a caller in another process does.
    """
    monkeypatch.setattr(calls, "wallet_connections", {})
    monkeypatch.setattr(pairings, "wallet_connections", {})


@database_sync_to_async
def a_pairing(visitor, manifest_name="geo", channel_name="", status=Pairing.Status.ACTIVE, minutes_ago=0):
    """Make a pairing row for a visitor and manifest (as a wallet's hello would), `minutes_ago` old."""
    at = clock.now() - timedelta(minutes=minutes_ago)
    return Pairing.objects.create(
        token_digest=f"digest-{visitor}-{manifest_name}-{channel_name}-{minutes_ago}",
        visitor=visitor,
        manifest_name=manifest_name,
        channel_name=channel_name,
        status=status,
        created_at=at,
        last_seen=at,
    )


@database_sync_to_async
def new_code(site="geo", visitor="visitor-a", address="192.0.2.1"):
    """Issue a code as POST /byoa/code would; return (code, wait_id)."""
    return codes.issue(visitor, address, manifests.get_manifest(site))


@pytest.fixture
async def wallet_socket():
    """Open WebsocketCommunicators on the wallet consumer; they are disconnected after the test."""
    opened = []

    async def open_socket(headers=()):
        communicator = WebsocketCommunicator(WalletConsumer.as_asgi(), "/byoa/ws", headers=list(headers))
        connected, _ = await communicator.connect(timeout=5)
        opened.append(communicator)
        return communicator, connected

    yield open_socket
    for communicator in opened:
        with contextlib.suppress(Exception):
            await communicator.disconnect(timeout=5)


async def pair(open_socket, site="geo", **grant_options):
    """Return (communicator, welcome frame) for a wallet paired with a fresh code."""
    code, _wait = await new_code(site=site)
    communicator, connected = await open_socket()
    assert connected
    await communicator.send_json_to(hello(session=code, **grant_options))
    welcome = await communicator.receive_json_from(timeout=5)
    assert welcome["type"] == "welcome", welcome
    return communicator, welcome


async def close_code(communicator, timeout=5):
    """Return the close code the consumer sent, skipping any frames before it."""
    while True:
        message = await communicator.receive_output(timeout)
        if message["type"] == "websocket.close":
            return message.get("code", 1000)


get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))


@pytest.fixture(scope="session")
def byoa_server(tmp_path_factory):
    """The project under a real daphne with the test manifests (tests/byoa/server_settings.py)."""
    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.byoa.server_settings",
        workdir=tmp_path_factory.mktemp("byoa-daphne"),
    )
    with server:
        yield server


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and "byoa_server" in getattr(item, "fixturenames", ()):
        server = item.funcargs.get("byoa_server")
        if server is not None:
            report.sections.append(("byoa daphne output", server.output()[-20000:]))
    return report


class Browser:
    """A visitor's browser on the live server: its own cookies, the page's requests."""

    def __init__(self, server):
        self.http = loopback.client(server.url, timeout=30)

    async def open_page(self):
        await self.http.get("/_test/page")

    async def new_link(self, manifest=None):
        response = await self.http.post(
            "/byoa/code",
            data={"manifest": manifest} if manifest else {},
            headers={"x-csrftoken": self.http.cookies["csrftoken"]},
        )
        assert response.status_code == 200, response.text
        return response.json()

    async def wait_state(self, wait_id):
        return (await self.http.get("/byoa/wait", params={"session": wait_id})).json()["state"]

    async def call(self, skill, input, params=None, **options):
        response = await self.http.post(
            "/_test/call", json={"skill": skill, "input": input, "params": params, **options}
        )
        assert response.status_code == 200, response.text
        return response.json()

    async def close(self):
        await self.http.aclose()


@pytest.fixture
async def visitor(byoa_server):
    """A fresh browser session on the live server, with its CSRF cookie."""
    browser = Browser(byoa_server)
    await browser.open_page()
    yield browser
    await browser.close()
