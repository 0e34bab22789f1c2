"""
A visitor of the Twenty Questions server, as its page talks to it: a session
cookie, Django's CSRF token, JSON POSTs, and the direct link's server-sent
events read from a streamed POST. Plus the daphne the server tests run on.
"""

import json

import pytest

from tests import loopback


@pytest.fixture(scope="session")
def twentyq_server(tmp_path_factory):
    """The project under a real daphne, with calls to a wallet bounded by 2 s (daphne_settings.py)."""
    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.twentyq.daphne_settings",
        workdir=tmp_path_factory.mktemp("twentyq-daphne"),
    )
    with server:
        yield server


@pytest.fixture
async def player(twentyq_server):
    """A fresh visitor on the game page."""
    visitor = Player(twentyq_server)
    await visitor.open()
    yield visitor
    await visitor.close()


class Player:
    def __init__(self, server):
        self.http = loopback.client(server.url, timeout=30)

    async def open(self):
        """Load the page (the session and CSRF cookies); return the response."""
        response = await self.http.get("/twentyq/")
        assert response.status_code == 200
        return response

    @property
    def headers(self):
        return {"x-csrftoken": self.http.cookies["csrftoken"]}

    async def post(self, name, body=None):
        """POST JSON to /twentyq/api/<name>; return (status, parsed body)."""
        response = await self.http.post(f"/twentyq/api/{name}", json=body or {}, headers=self.headers)
        return response.status_code, response.json()

    async def ok(self, name, body=None):
        """POST and expect 200; return the game."""
        status, answer = await self.post(name, body)
        assert status == 200, answer
        return answer["game"]

    async def link(self, direct_wallet, backend, **options):
        """Link a headless wallet to this visitor's session by the game's link; return the wallet."""
        response = await self.http.post("/byoa/code", json={"manifest": "twentyq"}, headers=self.headers)
        assert response.status_code == 200, response.text
        # A generous bound on the welcome: on a loaded CI machine the server's first hello can be slow.
        wallet = await direct_wallet(response.json()["link"], backend, **{"open_timeout": 30, **options})
        assert wallet.opened, wallet.activity
        return wallet

    def stream(self, body=None):
        """Open the streamed move (an httpx stream context)."""
        return self.http.stream("POST", "/twentyq/api/stream", json=body or {}, headers=self.headers)

    async def events(self, body=None):
        """Make a streamed move and return [(event, data)] to the end of the stream."""
        async with self.stream(body) as response:
            assert response.status_code == 200, (await response.aread())[:500]
            assert response.headers["content-type"] == "text/event-stream"
            return [event async for event in read_events(response)]

    async def close(self):
        await self.http.aclose()


async def read_events(response):
    """Yield (event, data) from a text/event-stream response, as they arrive."""
    name, data = None, []
    async for line in response.aiter_lines():
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            data.append(line[len("data: ") :])
        elif line == "" and name is not None:
            yield name, json.loads("\n".join(data))
            name, data = None, []
