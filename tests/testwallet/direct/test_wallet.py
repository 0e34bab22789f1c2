"""The headless wallet: link checks, consent, hello, welcome check, gate, ping, coming back."""

import asyncio
import base64
import json
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.server import serve

from byoa.pairing import manifests
from byoa.pairing.invitations import build
from byoa.wire import protocol, wav
from testwallet.direct import (
    BackendError,
    Consent,
    DirectWallet,
    LinkRefused,
    OpenAICompatibleBackend,
    ScriptedBackend,
    check_link,
    link_checks,
    reconnect_delays,
)
from testwallet.direct import __main__ as cli

GEO = manifests.encode(json.loads(Path("tests/byoa/manifests/geo.json").read_text()))[1]
QUIZ = manifests.encode(json.loads(Path("tests/byoa/manifests/quiz.json").read_text()))[1]
CODE = "A" * 32


def link(endpoint="wss://game.example.org/byoa/ws", manifest=GEO, code=CODE):
    return build(endpoint, manifest, code)


# -- link checks -------------------------------------------------------------------


def test_a_good_link_passes_every_check():
    checked = check_link(link(), dev_local=False)
    assert (checked.endpoint, checked.manifest_text, checked.session) == (
        "wss://game.example.org/byoa/ws",
        GEO,
        CODE,
    )
    assert checked.manifest["privacy"] == "personal-voice"


@pytest.mark.parametrize(
    "text, check",
    [
        (link() + "#x", "fragment"),
        (link() + "&v=0.1", "repeated-parameter"),
        (link().replace("v=0.1", "v=0.2"), "version"),
        (link().replace("bringyourownagent://connect", "byoa://connect"), "form"),
        (link().replace("://connect", "://other"), "form"),
        (link(code="short"), "session"),
        (link(code="A" * 257), "session"),
        (link(code="A" * 30 + "=="), "session"),
        (link(manifest=GEO + "=="), "manifest"),
        (link(manifest=base64.b64encode(b'{"a": "\xff\xfe?"}').decode().rstrip("=")), "manifest"),
        (link(manifest=base64.urlsafe_b64encode(b"[1,2]").decode().rstrip("=")), "manifest"),
        (link(manifest=base64.urlsafe_b64encode(b'{"byoa":"0.1-draft"}').decode().rstrip("=")), "manifest"),
        (
            link(manifest=base64.urlsafe_b64encode(b'{"x":"' + b"y" * 4100 + b'"}').decode().rstrip("=")),
            "manifest",
        ),
    ],
)
def test_a_link_failing_a_check_is_refused(text, check):
    with pytest.raises(LinkRefused) as refused:
        check_link(text, dev_local=False)
    assert refused.value.check == check
    assert CODE not in str(refused.value)


@pytest.mark.parametrize(
    "endpoint",
    [
        "ws://game.example.org/byoa/ws",
        "https://game.example.org/byoa/ws",
        "wss://93.184.216.34/byoa/ws",
        "wss://2130706433/byoa/ws",
        "wss://0x7f.1/byoa/ws",
        "wss://0177.0.0.1/byoa/ws",
        "wss://127.1/byoa/ws",
        "wss://[::1]/byoa/ws",
        "wss://[2606:4700::1111]/byoa/ws",
        "wss://localhost/byoa/ws",
        "wss://app.localhost/byoa/ws",
        "wss://printer.local/byoa/ws",
        "wss://nas.home.arpa/byoa/ws",
        "wss://db.internal/byoa/ws",
        "wss://router.lan/byoa/ws",
        "wss://intranet/byoa/ws",
        "wss://user:pw@game.example.org/byoa/ws",
        "wss://game.example.123/byoa/ws",
    ],
)
def test_an_endpoint_that_is_not_wss_on_a_public_dns_name_is_refused(endpoint):
    with pytest.raises(LinkRefused) as refused:
        check_link(link(endpoint=endpoint), dev_local=False)
    assert refused.value.check == "endpoint"


@pytest.mark.parametrize(
    "endpoint", ["ws://localhost:8000/byoa/ws", "ws://127.0.0.1:8000/byoa/ws", "wss://[::1]:8443/byoa/ws"]
)
def test_the_developer_switch_allows_localhost_only(endpoint, monkeypatch):
    with pytest.raises(LinkRefused):
        check_link(link(endpoint=endpoint), dev_local=False)
    monkeypatch.setenv("BYOA_WALLET_DEV_LOCAL", "1")
    assert check_link(link(endpoint=endpoint)).endpoint == endpoint
    with pytest.raises(LinkRefused):
        check_link(link(endpoint="ws://192.168.1.2/byoa/ws"))


async def test_a_name_that_resolves_to_a_private_address_is_refused():
    with pytest.raises(LinkRefused) as refused:
        await link_checks.resolve_public("localhost", 443)
    assert refused.value.check == "address"


def test_the_reconnect_schedule_is_1_2_5_10_then_every_30_seconds():
    delays = reconnect_delays()
    assert [next(delays) for _ in range(7)] == [1, 2, 5, 10, 30, 30, 30]


# -- a site to talk to -------------------------------------------------------------


class FakeSite:
    """A WebSocket server on loopback that plays the site's side from a script."""

    def __init__(self, manifest=GEO):
        self.manifest = manifest
        self.hellos = []
        self.frames = []
        self.connections = 0
        self.received = asyncio.Event()
        self.script = self.welcome_and_serve
        self.calls = asyncio.Queue()

    async def __aenter__(self):
        self.server = await serve(self.handle, "127.0.0.1", 0, max_size=4 * 1024 * 1024)
        port = self.server.sockets[0].getsockname()[1]
        self.endpoint = f"ws://127.0.0.1:{port}/byoa/ws"
        return self

    async def __aexit__(self, *exc):
        self.server.close()
        await self.server.wait_closed()

    async def handle(self, ws):
        self.connections += 1
        await self.script(ws)

    async def welcome_and_serve(self, ws, manifest=None):
        frame = json.loads(await ws.recv())
        self.hellos.append(frame)
        await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, manifest or self.manifest)))
        async for message in ws:
            frame = json.loads(message)
            self.frames.append(frame)
            self.received.set()
            if frame["type"] in ("result", "chunk"):
                await self.calls.put(frame)

    def link(self, code=CODE, manifest=None):
        return link(endpoint=self.endpoint, manifest=manifest or self.manifest, code=code)


def wallet(script=None, **options):
    options.setdefault("dev_local", True)
    return DirectWallet(ScriptedBackend(script or {"audio.transcribe": {"text": "Peru"}}), **options)


async def test_a_decline_contacts_nothing():
    async with FakeSite() as site:
        declined = wallet(consent=Consent.DECLINE)
        assert not await declined.open(site.link())
        assert site.connections == 0 and declined.activity == ["declined"]


async def test_a_manifest_requiring_a_skill_the_wallet_lacks_gets_no_allow():
    async with FakeSite(manifest=QUIZ) as site:
        lacking = wallet()
        assert not await lacking.open(site.link())
        assert site.connections == 0


async def test_the_hello_carries_the_code_the_wallet_and_its_grant():
    async with FakeSite() as site:
        allowed = wallet()
        assert await allowed.open(site.link())
        hello = site.hellos[0]
        assert (hello["type"], hello["v"], hello["session"], hello["pairing"]) == ("hello", "0.1", CODE, None)
        assert hello["wallet"] == {"name": "Headless wallet", "version": "0.1"}
        assert hello["grant"]["skills"] == ["audio.transcribe"]
        assert (
            hello["grant"]["limits"]["maxParallelCalls"] == 4
            and hello["grant"]["limits"]["maxClipSeconds"] == 15
        )
        assert hello["grant"]["expiresAt"].endswith("Z")
        await allowed.close()


async def test_the_grant_lists_the_ticked_model_codes_for_a_models_block():
    async with FakeSite(manifest=QUIZ) as site:
        texts = DirectWallet(
            ScriptedBackend({"text.generate": {"text": "yes"}}, models=["m1", "m2", "m3"]), dev_local=True
        )
        assert await texts.open(site.link())
        assert site.hellos[0]["grant"]["models"] == ["m1", "m2"]
        await texts.close()


async def test_a_welcome_with_another_manifest_gets_bye_and_the_site_is_forgotten():
    async with FakeSite() as site:
        site.script = lambda ws: site.welcome_and_serve(ws, manifest=GEO + "x")
        cautious = wallet()
        assert not await cautious.open(site.link())
        await asyncio.wait_for(site.received.wait(), 5)
        assert site.frames == [{"type": "bye"}]
        assert not await cautious.open(site.link(code="B" * 32))
        assert site.connections == 1 and "blocked" in cautious.activity[-1]


async def test_a_forgotten_site_stays_blocked_on_a_link_with_another_route_segment():
    async with FakeSite() as site:
        site.script = lambda ws: site.welcome_and_serve(ws, manifest=GEO + "x")
        cautious = wallet()
        site.endpoint += "/" + "A" * 22
        assert not await cautious.open(site.link())
        await asyncio.wait_for(site.received.wait(), 5)
        site.endpoint = site.endpoint[:-22] + "B" * 22
        assert not await cautious.open(site.link(code="B" * 32))
        assert site.connections == 1 and "blocked" in cautious.activity[-1]


async def test_a_code_seen_in_the_last_10_minutes_is_ignored():
    async with FakeSite() as site:
        once = wallet()
        assert await once.open(site.link())
        assert not await once.open(site.link())
        assert site.connections == 1
        await once.close()


class Clock:
    """An injected sleep: records each delay and lets the test decide when it ends."""

    def __init__(self):
        self.delays = []
        self.waiting = asyncio.Queue()

    async def sleep(self, seconds):
        self.delays.append(seconds)
        done = asyncio.Event()
        await self.waiting.put((seconds, done))
        await done.wait()

    async def pass_one(self):
        seconds, done = await asyncio.wait_for(self.waiting.get(), 5)
        done.set()
        return seconds


async def test_the_wallet_pings_every_30_seconds():
    clock = Clock()
    async with FakeSite() as site:
        pinging = wallet(sleep=clock.sleep)
        assert await pinging.open(site.link())
        for _ in range(2):
            assert await clock.pass_one() == 30
        await asyncio.wait_for(_until(site.received, lambda: site.frames.count({"type": "ping"}) == 2), 5)
        await pinging.close()


async def _until(changed, predicate):
    """Wait until ``predicate()`` holds, checked each time ``changed`` is set (the caller bounds the wait)."""
    while not predicate():
        changed.clear()
        await changed.wait()


async def test_with_decide_on_my_own_it_comes_back_with_its_pairing_on_the_schedule():
    clock = Clock()
    async with FakeSite() as site:
        attempts = []

        async def script(ws):
            attempts.append(1)
            if len(attempts) == 1:
                await site.welcome_and_serve_once(ws)
            elif len(attempts) < 6:
                await ws.close()  # the site is down for a while
            else:
                await site.welcome_and_serve(ws)

        async def welcome_once(ws):
            site.hellos.append(json.loads(await ws.recv()))
            await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, GEO)))
            await ws.close()  # then the connection drops

        site.welcome_and_serve_once = welcome_once
        site.script = script
        faithful = wallet(consent=Consent.DECIDE_ON_MY_OWN, sleep=clock.sleep, ping_seconds=10**6)
        assert await faithful.open(site.link())
        waited = []
        while len(attempts) < 6:
            seconds = await clock.pass_one()
            if seconds != 10**6:
                waited.append(seconds)
        await asyncio.wait_for(faithful.welcomed.wait(), 5)
        assert waited == [1, 2, 5, 10, 30]
        assert site.hellos[-1]["session"] is None and site.hellos[-1]["pairing"] == "token-" + "t" * 40
        await faithful.close()


def _quiz(change):
    """Return the quiz manifest, as the welcome carries it, after ``change`` edited its JSON."""
    manifest = json.loads(Path("tests/byoa/manifests/quiz.json").read_text())
    change(manifest)
    return manifests.encode(manifest)[1]


def _limit(name, value):
    return lambda m: m["purpose"]["limits"].__setitem__(name, value)


async def _welcome_again(site, manifest):
    """Welcome a wallet, drop it, and welcome its return with ``manifest``; return the wallet."""
    clock = Clock()
    attempts = []
    attempted = asyncio.Event()

    async def script(ws):
        attempts.append(1)
        attempted.set()
        if len(attempts) == 1:
            site.hellos.append(json.loads(await ws.recv()))
            await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, QUIZ)))
            await ws.close()
        else:
            await site.welcome_and_serve(ws, manifest=manifest)

    site.script = script
    backend = ScriptedBackend({"text.generate": {"text": "yes"}}, models=["m1", "m2", "m3"])
    returning = DirectWallet(
        backend, dev_local=True, consent=Consent.DECIDE_ON_MY_OWN, sleep=clock.sleep, ping_seconds=10**6
    )
    assert await returning.open(site.link())
    while await clock.pass_one() != 1:  # the ping's sleeps may come first
        pass
    await asyncio.wait_for(_until(attempted, lambda: len(attempts) == 2), 5)
    return returning


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda m: m["skills"]["text.generate"]["models"].__setitem__("count", 3), id="more-models"
        ),
        pytest.param(_limit("maxAnswerTokens", 400), id="looser-limit"),
        pytest.param(lambda m: m["purpose"]["limits"].pop("maxTextChars"), id="limit-dropped"),
    ],
)
async def test_coming_back_to_a_manifest_that_asks_for_more_in_any_way_says_bye(change):
    async with FakeSite(manifest=QUIZ) as site:
        returning = await _welcome_again(site, _quiz(change))
        await asyncio.wait_for(site.received.wait(), 5)
        assert site.frames == [{"type": "bye"}]
        await asyncio.wait_for(returning.closed.wait(), 5)
        assert returning.pairing is None


async def test_after_a_bye_to_a_manifest_that_asks_for_more_a_new_link_is_welcomed():
    """specs/byoa-sites.md: "if that asks for more than was allowed, the wallet says bye and you need a new link"."""
    wider = _quiz(_limit("maxAnswerTokens", 400))
    async with FakeSite(manifest=QUIZ) as site:
        returning = await _welcome_again(site, wider)
        await asyncio.wait_for(returning.closed.wait(), 5)
        assert returning.activity[-1].startswith("bye: the site's manifest asks for more")
        site.script, site.manifest = site.welcome_and_serve, wider  # the page's new link, with its manifest
        assert await returning.open(site.link(code="B" * 32))
        assert site.hellos[-1]["session"] == "B" * 32
        await returning.close()


async def test_coming_back_to_a_manifest_that_asks_for_less_stays_connected():
    async with FakeSite(manifest=QUIZ) as site:
        returning = await _welcome_again(site, _quiz(_limit("maxAnswerTokens", 100)))
        await asyncio.wait_for(returning.welcomed.wait(), 5)
        assert returning.manifest["purpose"]["limits"]["maxAnswerTokens"] == 100
        await returning.close()
        assert {"type": "bye"} in site.frames


async def test_with_a_plain_allow_a_dropped_connection_is_not_resumed():
    async with FakeSite() as site:

        async def drop(ws):
            site.hellos.append(json.loads(await ws.recv()))
            await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, GEO)))
            await ws.close()

        site.script = drop
        once = wallet()
        assert await once.open(site.link())
        await asyncio.wait_for(once.closed.wait(), 5)
        assert once.pairing is None and site.connections == 1


async def call_through(site, wallet_, frame):
    """Send a call frame from the site and return the wallet's result frame."""
    sent = asyncio.Event()

    async def script(ws):
        site.hellos.append(json.loads(await ws.recv()))
        await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, site.manifest)))
        await ws.send(json.dumps(frame))
        sent.set()
        async for message in ws:
            got = json.loads(message)
            if got["type"] in ("result", "chunk"):
                await site.calls.put(got)

    site.script = script
    assert await wallet_.open(site.link())
    return await asyncio.wait_for(site.calls.get(), 5)


def clip_input(seconds):
    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(wav.silent_clip(seconds)).decode()}}


async def test_a_call_within_the_rules_is_answered_with_a_receipt():
    async with FakeSite() as site:
        answering = wallet()
        result = await call_through(
            site, answering, protocol.call(1, "audio.transcribe", clip_input(1), {"language": "en"})
        )
        assert result == {
            "type": "result",
            "id": 1,
            "ok": True,
            "output": {"text": "Peru"},
            "receipt": {"cost": "0 USD", "provider": "local"},
        }
        await answering.close()


@pytest.mark.parametrize(
    "frame",
    [
        protocol.call(2, "audio.transcribe", clip_input(16), {}),  # over maxClipSeconds 15, measured
        protocol.call(3, "audio.transcribe", {"audio": {"mime": "audio/wav", "base64": "bm90IGEgd2F2"}}, {}),
        protocol.call(4, "text.generate", {"messages": []}, {}),  # not granted
        protocol.call(5, "audio.transcribe", clip_input(1), {"model": "m9"}),  # no such model granted
    ],
)
async def test_a_call_the_gate_or_the_grant_refuses_gets_ok_false(frame):
    async with FakeSite() as site:
        refusing = wallet()
        result = await call_through(site, refusing, frame)
        assert result == {"type": "result", "id": frame["id"], "ok": False}
        assert refusing.backend.calls == []
        await refusing.close()


async def test_a_streamed_call_is_answered_in_chunks_then_the_result():
    async with FakeSite(manifest=QUIZ) as site:
        texts = DirectWallet(ScriptedBackend({"text.generate": {"text": "Yes it is"}}), dev_local=True)
        first = await call_through(
            site,
            texts,
            protocol.call(
                1, "text.generate", {"messages": [{"role": "user", "content": "?"}]}, {"stream": True}
            ),
        )
        frames = [first] + [await asyncio.wait_for(site.calls.get(), 5) for _ in range(3)]
        assert [f.get("delta") for f in frames[:3]] == ["Yes", " it", " is"]
        assert frames[3]["output"] == {"text": "Yes it is"}
        await texts.close()


# -- the OpenAI-compatible backend ---------------------------------------------------


async def test_the_openai_compatible_backend_sends_chat_messages_and_reads_the_text():
    seen = []

    def handler(request):
        seen.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"content": "Paris"}}]})

    backend = OpenAICompatibleBackend(
        "http://llm.test/v1",
        {"m1": "llama3.2"},
        client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    messages = {"messages": [{"role": "user", "content": "Capital of France?"}]}
    assert await backend.run("text.generate", messages, {"maxTokens": 20}) == {"text": "Paris"}
    assert seen[0] == {
        "model": "llama3.2",
        "messages": messages["messages"],
        "stream": False,
        "max_tokens": 20,
    }


async def test_the_openai_compatible_backend_streams_deltas():
    body = (
        "".join(
            f"data: {json.dumps({'choices': [{'delta': {'content': piece}}]})}\n\n" for piece in ("Pa", "ris")
        )
        + "data: [DONE]\n\n"
    )
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=body))
    backend = OpenAICompatibleBackend(
        "http://llm.test/v1", {"m1": "x"}, client=httpx.AsyncClient(transport=transport)
    )
    assert [d async for d in backend.stream("text.generate", {"messages": []}, {})] == ["Pa", "ris"]


async def test_the_openai_compatible_backend_fails_on_an_error_status():
    transport = httpx.MockTransport(lambda request: httpx.Response(500))
    backend = OpenAICompatibleBackend(
        "http://llm.test/v1", {"m1": "x"}, client=httpx.AsyncClient(transport=transport)
    )
    with pytest.raises(BackendError):
        await backend.run("text.generate", {"messages": []}, {})


def test_the_command_line_refuses_a_bad_link_and_prints_why(capsys):
    assert cli.main(["bringyourownagent://connect?v=0.2", "--script", 'audio.transcribe={"text":"x"}']) == 1
    assert "link refused (version)" in capsys.readouterr().out


def test_the_command_line_refuses_a_link_to_this_machine_once_naming_the_switch(capsys, monkeypatch):
    monkeypatch.delenv("BYOA_WALLET_DEV_LOCAL", raising=False)
    assert cli.main([link(endpoint="ws://127.0.0.1:8000/byoa/ws")]) == 1
    captured = capsys.readouterr()
    assert captured.out == (
        "link refused (endpoint): the endpoint is not wss://: for a site on this machine, allow "
        "ws://localhost, 127.0.0.1 and [::1] with --dev-local or BYOA_WALLET_DEV_LOCAL=1 "
        "(DirectWallet(dev_local=True) in code); local tests only\n"
    )
    assert captured.err == "" and CODE not in captured.out


def test_an_endpoint_off_this_machine_is_refused_naming_the_sites_setting():
    with pytest.raises(LinkRefused) as refused:
        check_link(link(endpoint="ws://game.example.org/byoa/ws"), dev_local=False)
    assert "BYOA['ENDPOINT']" in refused.value.fix and "wss://" in refused.value.fix


@pytest.mark.parametrize("text", [link(code="short"), link() + "#x", link().replace("v=0.1", "v=0.2")])
def test_every_refused_link_says_what_to_change(text):
    with pytest.raises(LinkRefused) as refused:
        check_link(text, dev_local=False)
    assert refused.value.fix and str(refused.value).endswith(refused.value.fix)


async def test_a_call_over_the_wallets_own_max_parallel_calls_gets_ok_false():
    release = asyncio.Event()

    async def slow(input, params):
        await release.wait()
        return {"text": "Peru"}

    async with FakeSite() as site:

        async def script(ws):
            site.hellos.append(json.loads(await ws.recv()))
            await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, site.manifest)))
            await ws.send(json.dumps(protocol.call(1, "audio.transcribe", clip_input(1), {})))
            await ws.send(json.dumps(protocol.call(2, "audio.transcribe", clip_input(1), {})))
            async for message in ws:
                await site.calls.put(json.loads(message))

        site.script = script
        capped = wallet({"audio.transcribe": slow}, limits={"maxParallelCalls": 1})
        assert await capped.open(site.link())
        assert site.hellos[0]["grant"]["limits"]["maxParallelCalls"] == 1
        assert await asyncio.wait_for(site.calls.get(), 5) == {"type": "result", "id": 2, "ok": False}
        release.set()
        first = await asyncio.wait_for(site.calls.get(), 5)
        assert (first["id"], first["ok"]) == (1, True)
        await capped.close()
