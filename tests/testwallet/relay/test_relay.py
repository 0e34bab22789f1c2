"""
The by-hand stand-ins' model relay on a real daphne: absent without DEBUG,
refused to other sites and other sessions, bounded in size and time, silent
about conversations in the server's log; and its wire: the wallet's chat (and
text.generate) in, as the page asked it, the model's OpenAI request out, and
the wallet's events back as JSON Lines while the model streams.
"""

import asyncio
import json
import re

import pytest

from tests import loopback
from tests.testwallet.relay.model_double import MODEL

pytestmark = pytest.mark.live

CHAT = "/testwallet/relay/chat"
GENERATE = "/testwallet/relay/generate"
TRANSCRIBE = "/testwallet/relay/transcribe"
SECRET_WORDS = "my aunt's parrot speaks Esperanto"


class Visitor:
    """A browser session that turned the test wallet on, as the page's scripts see it."""

    def __init__(self, client, relay):
        self.client = client
        self.relay = relay
        self.origin = str(client.base_url).rstrip("/")

    def headers(self, **changes):
        headers = {
            "Origin": self.origin,
            "Sec-Fetch-Site": "same-origin",
            "X-CSRFToken": self.relay["csrf"],
            "X-Testwallet-Token": self.relay["token"],
        }
        headers.update(changes)
        return {name: value for name, value in headers.items() if value is not None}

    async def chat(self, body, **headers):
        return await self.client.post(CHAT, json=body, headers=self.headers(**headers))

    async def generate(self, text, **params):
        body = {"input": {"messages": [{"role": "user", "content": text}]}, "params": params}
        return await self.client.post(GENERATE, json=body, headers=self.headers())


async def visit(server):
    client = loopback.client(server.url, timeout=20)
    page = (await client.get("/bookshop/?testwallet=1")).text
    found = re.search(r'<script id="testwallet-relay" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page has no relay settings"
    return Visitor(client, json.loads(found.group(1)))


@pytest.fixture
async def visitor(model_server):
    visitor = await visit(model_server)
    yield visitor
    await visitor.client.aclose()


def ask(text, **more):
    """A wallet chat's params, as the page gives AI Wallet's chat them."""
    return {"messages": [{"role": "user", "content": text}], **more}


def lines(response):
    """The wallet's events of a chat's answer, one a line."""
    return [json.loads(line) for line in response.text.splitlines()]


async def test_relay_is_not_routed_without_debug(daphne_server):
    async with loopback.client(daphne_server.url) as client:
        page = (await client.get("/bookshop/?testwallet=1")).text
        response = await client.post(CHAT, json=ask("hi"), headers={"Origin": daphne_server.url})
    assert 'id="testwallet-relay"' not in page
    assert response.status_code == 404


async def test_page_names_the_model_that_answers_in_its_banner(visitor, model_server):
    page = (await visitor.client.get("/bookshop/")).text
    assert f"{MODEL} at 127.0.0.1:" in page
    assert visitor.relay["model"].startswith(f"{MODEL} at ") and visitor.relay["scripted"] is False
    assert "sk-double-key" not in page  # the key stays on the server


async def test_a_wallet_chat_goes_to_the_model_as_openai_and_comes_back_as_the_wallets_events(visitor, model):
    model.reply("Dune, by Frank Herbert.")
    tools = [{"name": "search_books", "description": "Find books.", "inputSchema": {"type": "object"}}]
    chat = ask("A book about sand", tools=tools, options={"maxTokens": 9}, model="not-this-one", user="x")
    response = await visitor.chat(chat)
    assert response.status_code == 200 and response.headers["content-type"] == "application/x-ndjson"
    *texts, last = lines(response)
    assert "".join(event["delta"] for event in texts) == "Dune, by Frank Herbert."
    assert {event["kind"] for event in texts} == {"text"}
    assert last["kind"] == "result" and last["result"]["message"]["content"] == "Dune, by Frank Herbert."
    assert last["result"]["model"] == MODEL and last["result"]["finishReason"] == "stop"
    sent = model.chats()[-1]
    assert sent["model"] == MODEL and "user" not in sent  # the relay's model; unknown keys dropped
    assert sent["messages"] == [{"role": "user", "content": "A book about sand"}]
    assert sent["stream"] is True and sent["max_tokens"] == 9
    assert sent["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "search_books",
                "description": "Find books.",
                "parameters": {"type": "object"},
            },
        }
    ]


async def test_a_tool_call_streamed_in_pieces_reaches_the_page_whole(visitor, model):
    model.reply(tool_calls=[("search_books", {"query": "dune", "mood": "calm"})])
    response = await visitor.chat(ask("dune", tools=[{"name": "search_books"}]))
    [result] = lines(response)
    assert result["result"]["message"]["toolCalls"] == [
        {"id": "call_0", "name": "search_books", "arguments": {"query": "dune", "mood": "calm"}}
    ]
    assert result["result"]["finishReason"] == "toolCalls"


async def test_streamed_text_reaches_the_page_while_the_model_is_still_writing(visitor, model):
    rest = model.reply("One two three", hold_after=1)
    async with asyncio.timeout(10):
        request = visitor.client.stream("POST", CHAT, json=ask("count"), headers=visitor.headers())
        async with request as response:
            arriving = response.aiter_lines()
            first = json.loads(await anext(arriving))
            assert (
                first == {"kind": "text", "delta": "One "} and not rest.is_set()
            )  # the model holds the rest back
            rest.set()
            tail = [json.loads(line) async for line in arriving]
    assert [event.get("delta") for event in tail] == ["two ", "three", None]
    assert tail[-1]["kind"] == "result"


async def test_a_model_that_stops_mid_answer_ends_it_with_a_504_after_the_text_it_wrote(visitor, model):
    rest = model.reply("One two three", hold_after=1)
    try:
        response = await visitor.chat(ask("count"))  # the relay's bound is 3 s
    finally:
        rest.set()
    assert lines(response) == [
        {"kind": "text", "delta": "One "},
        {"kind": "error", "status": 504, "message": "The model server took longer than 3 s to answer"},
    ]


async def test_text_generate_goes_to_the_model_unstreamed_with_the_choices_told(visitor, model):
    model.reply("yes")
    response = await visitor.generate("Is it alive?", maxTokens=5, choices=["yes", "no"])
    assert response.status_code == 200 and response.json() == {"text": "yes"}
    sent = model.chats()[-1]
    assert (sent["stream"], sent["max_tokens"], sent["model"]) == (False, 5, MODEL)
    assert sent["messages"] == [
        {"role": "system", "content": "Answer with exactly one of: yes, no"},
        {"role": "user", "content": "Is it alive?"},
    ]


async def test_model_server_error_reaches_the_page_as_a_clean_502(visitor, model):
    model.fail(500, "out of memory")
    response = await visitor.chat(ask("hello"))
    assert response.status_code == 502
    assert response.json() == {
        "error": {"message": "The model server answered 500: out of memory", "status": 502}
    }


async def test_slow_model_server_gets_a_clean_504_within_the_relays_bound(visitor, model):
    held = model.hold()
    response = await visitor.chat(ask("hello"))
    held.set()
    assert response.status_code == 504
    assert response.json()["error"]["message"] == "The model server took longer than 3 s to answer"
    assert await asyncio.to_thread(model.hung_up.wait, 5)  # the relay let go of the model server


async def test_another_browser_is_refused(visitor, model_server, model):
    other = await visit(model_server)
    try:
        # The other browser's own CSRF token, with this browser's relay token.
        response = await other.chat(ask("hello"), **{"X-Testwallet-Token": visitor.relay["token"]})
        missing = await other.chat(ask("hello"), **{"X-Testwallet-Token": None})
    finally:
        await other.client.aclose()
    assert response.status_code == 403 and "browser" in response.json()["error"]["message"]
    assert missing.status_code == 403
    assert model.chats() == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": None},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
    ids=["foreign-origin", "no-origin", "cross-site", "same-site"],
)
async def test_another_origin_is_refused(visitor, model, headers):
    response = await visitor.chat(ask("hello"), **headers)
    assert response.status_code == 403
    assert model.chats() == []


@pytest.mark.parametrize(
    "forwarded", ["203.0.113.5", "127.0.0.1, 203.0.113.5", "203.0.113.5, 127.0.0.1", "unknown"]
)
async def test_a_client_a_proxy_forwarded_from_elsewhere_is_refused(visitor, model, forwarded):
    response = await visitor.chat(ask("hello"), **{"X-Forwarded-For": forwarded})
    assert response.status_code == 403 and "loopback" in response.text
    assert model.chats() == []


def test_a_client_address_not_on_this_machine_is_refused(settings):
    from django.test import RequestFactory

    from testwallet.relay.views import _from_this_machine

    factory = RequestFactory()
    assert _from_this_machine(factory.post("/", REMOTE_ADDR="127.0.0.1"))
    assert _from_this_machine(factory.post("/", REMOTE_ADDR="::1"))
    assert not _from_this_machine(factory.post("/", REMOTE_ADDR="192.0.2.7"))
    assert not _from_this_machine(factory.post("/", REMOTE_ADDR=""))


async def test_request_without_the_csrf_token_is_refused(visitor, model):
    response = await visitor.chat(ask("hello"), **{"X-CSRFToken": None})
    assert response.status_code == 403
    assert model.chats() == []


async def test_oversized_chat_is_refused_with_413(visitor, model):
    response = await visitor.chat(ask("x" * (600 * 1024)))
    assert response.status_code == 413
    assert "at most 524288" in response.json()["error"]["message"]
    assert model.chats() == []


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        (CHAT, "not json", "not JSON"),
        (CHAT, "[1]", "JSON object"),
        (CHAT, '{"messages": []}', "carries its messages"),
        (CHAT, '{"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}', "true or false"),
        (GENERATE, '{"params": {}}', "carries input.messages"),
        (
            GENERATE,
            '{"input": {"messages": [{"role": "user", "content": "hi"}]}, "params": 5}',
            "params are an object",
        ),
    ],
)
async def test_bad_chat_body_is_a_clear_400(visitor, model, route, body, words):
    response = await visitor.client.post(
        route, content=body, headers={**visitor.headers(), "Content-Type": "application/json"}
    )
    assert response.status_code == 400 and words in response.json()["error"]["message"]
    assert model.chats() == []


async def test_transcription_sends_the_clip_to_the_named_server(visitor, model):
    model.transcript("Peru")
    clip = {"mime": "audio/wav", "base64": "UklGRgAAAABXQVZF"}
    response = await visitor.client.post(
        TRANSCRIBE, json={"audio": clip, "language": "en"}, headers=visitor.headers()
    )
    assert response.status_code == 200 and response.json() == {"text": "Peru"}
    assert model.requests[-1] == ("transcribe", {"model": "double-whisper", "language": "en", "file": 12})


async def test_transcription_of_audio_that_is_not_base64_is_a_clear_400(visitor, model):
    response = await visitor.client.post(
        TRANSCRIBE, json={"audio": {"mime": "audio/wav", "base64": "%%%"}}, headers=visitor.headers()
    )
    assert response.status_code == 400 and response.json()["error"]["message"] == "The audio is not base64"


async def test_nothing_of_the_conversation_or_the_tokens_reaches_the_log(visitor, model, model_server):
    model.reply(f"So {SECRET_WORDS}?")
    await visitor.chat(ask(SECRET_WORDS))
    model.fail(400, f"cannot parse {SECRET_WORDS}")
    await visitor.chat(ask(SECRET_WORDS))
    model.reply(f"So {SECRET_WORDS}?")
    await visitor.generate(SECRET_WORDS)
    await visitor.chat(ask(SECRET_WORDS), **{"X-Testwallet-Token": "wrong"})
    log = model_server.output()
    assert CHAT in log  # the log is there, at DEBUG
    for secret in ("Esperanto", visitor.relay["token"], visitor.relay["csrf"], "sk-double-key"):
        assert secret not in log


async def test_scripted_player_answers_without_a_model_server(scripted_server):
    visitor = await visit(scripted_server)
    try:
        assert visitor.relay["scripted"] is True and visitor.relay["transcribe"] is None
        response = await visitor.chat(ask("dune", tools=[{"name": "search_books", "inputSchema": {}}]))
        generated = await visitor.generate("dune")
    finally:
        await visitor.client.aclose()
    [result] = lines(response)
    [call] = result["result"]["message"]["toolCalls"]
    assert (call["name"], call["arguments"]) == ("search_books", {"query": "dune"})
    assert result["result"]["model"] == "scripted"
    assert generated.json()["text"].startswith("(scripted stand-in, not an AI)")
