"""
``python -m testwallet.cassette serve``: a cassette as an OpenAI-compatible model server on a
loopback port, in its own process, as the npm fixtures start it. It records what the model
double answers (``--record all``), replays it with no model server, streamed and not, and
refuses a request never recorded with what differs; a broken file is refused at start. Its
wallet route (``/v1/wallet/chat``) takes an AI Wallet chat as the page sent it and answers the
wallet's events as JSON Lines, as they stream.
"""

import contextlib
import json
import os
import selectors
import subprocess
import sys

import httpx
import pytest

from tests.testwallet.relay.model_double import HOLD_BOUND_SECONDS, ModelDouble
from testwallet._openai_chat import wallet_chat_request

pytestmark = pytest.mark.live  # a server process of its own

#: How long the server may take to say where it serves.
START_BOUND_SECONDS = 20
QUESTION = {"messages": [{"role": "user", "content": "A calm book?"}]}
#: A wallet chat, as the page gives AI Wallet's `chat` its params.
WALLET_CHAT = {
    "messages": [{"role": "user", "content": "A calm book?"}],
    "tools": [{"name": "search_books", "description": "Find books.", "inputSchema": {"type": "object"}}],
    "options": {"maxTokens": 40},
}


@contextlib.contextmanager
def served(file, *arguments, model_url=""):
    """Run the server on `file`; yield its URL, then stop it with SIGTERM and check it stopped well."""
    env = {**os.environ, "TESTWALLET_MODEL_URL": model_url, "TESTWALLET_RECORD": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "testwallet.cassette", "serve", str(file), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            assert selector.select(START_BOUND_SECONDS), "the server said nothing"
        line = process.stdout.readline()
        assert line.startswith("Serving http://127.0.0.1:"), (line, process.stderr.read())
        yield line.split()[1]
    finally:
        process.terminate()
        process.wait(START_BOUND_SECONDS)
    assert process.returncode == 0, process.stderr.read()


def events(response):
    return [line for line in response.text.split("\n") if line.startswith("data:")]


def test_it_records_the_model_server_and_replays_the_same_answers_without_it(tmp_path):
    file = tmp_path / "answers.json"
    with ModelDouble() as model:
        model.reply("Try *Stoner*.")
        model.reply("Try *Middlemarch*.")
        with served(file, "--record", "all", model_url=model.url) as url:
            streamed = httpx.post(f"{url}/chat/completions", json={**QUESTION, "stream": True})
            whole = httpx.post(f"{url}/chat/completions", json={**QUESTION, "model": "any"})
    assert streamed.status_code == whole.status_code == 200
    assert streamed.headers["content-type"] == "text/event-stream"
    assert whole.json()["choices"][0]["message"]["content"] == "Try *Middlemarch*."
    assert [way["asked"]["stream"] for way in json.loads(file.read_text())["entries"]] == [True, False]

    with served(file) as url:  # no model server: the cassette alone
        assert events(httpx.post(f"{url}/chat/completions", json={**QUESTION, "stream": True})) == events(
            streamed
        )
        assert httpx.post(f"{url}/chat/completions", json=QUESTION).json() == whole.json()


def test_a_request_never_recorded_gets_409_naming_what_differs(tmp_path):
    file = tmp_path / "answers.json"
    with ModelDouble() as model:
        model.reply("Try *Stoner*.")
        with served(file, "--record", "all", model_url=model.url) as url:
            httpx.post(f"{url}/chat/completions", json={**QUESTION, "stream": True})

    with served(file) as url:
        asked = {"messages": [{"role": "user", "content": "A cheerful book?"}], "stream": True}
        refused = httpx.post(f"{url}/chat/completions", json=asked)
    assert refused.status_code == 409
    message = refused.json()["error"]["message"]
    assert (
        'nearest is entry 0: messages[0].content: recorded "A calm book?", asked "A cheerful book?"'
        in message
    )
    assert str(file) in message


def test_record_mode_with_no_model_server_named_says_which_variable_to_set(tmp_path):
    with served(tmp_path / "answers.json", "--record", "new") as url:
        refused = httpx.post(f"{url}/chat/completions", json=QUESTION)
    assert refused.status_code == 502
    assert "TESTWALLET_MODEL_URL" in refused.json()["error"]["message"]


def test_a_body_that_is_not_a_chat_is_refused_and_the_file_is_untouched(tmp_path):
    file = tmp_path / "answers.json"
    file.write_text('{"testwallet_cassette": 1, "entries": []}\n')
    with served(file) as url:
        json_type = {"Content-Type": "application/json"}
        assert (
            httpx.post(f"{url}/chat/completions", content=b"{not json", headers=json_type).status_code == 400
        )
        assert httpx.post(f"{url}/chat/completions", json=[1]).status_code == 400
        assert httpx.post(f"{url}/completions", json=QUESTION).status_code == 404
    assert file.read_text() == '{"testwallet_cassette": 1, "entries": []}\n'


def test_a_cassette_that_is_not_there_or_not_json_is_refused_at_start_naming_it(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    for file in (tmp_path / "missing.json", broken):
        run = subprocess.run(
            [sys.executable, "-m", "testwallet.cassette", "serve", str(file)],
            capture_output=True,
            text=True,
            timeout=START_BOUND_SECONDS,
            env={**os.environ, "TESTWALLET_RECORD": ""},
        )
        assert run.returncode == 1 and run.stdout == ""
        assert f"(cassette {file})" in run.stderr


def lines(response):
    return [json.loads(line) for line in response.text.splitlines()]


def test_a_wallet_chat_is_recorded_as_its_openai_request_and_replayed_as_the_wallets_events(tmp_path):
    file = tmp_path / "answers.json"
    with ModelDouble() as model:
        model.reply("Let me look.", tool_calls=[("search_books", {"mood": "calm"})])
        model.reply("Try Stoner.")
        with served(file, "--record", "all", model_url=model.url) as url:
            streamed = httpx.post(f"{url}/wallet/chat", json=WALLET_CHAT)
            whole = httpx.post(f"{url}/wallet/chat", json={**WALLET_CHAT, "stream": False})
    assert streamed.status_code == whole.status_code == 200
    assert streamed.headers["content-type"] == "application/x-ndjson"
    recorded = json.loads(file.read_text())["entries"]
    assert [entry["asked"] for entry in recorded] == [
        wallet_chat_request(WALLET_CHAT, True),
        wallet_chat_request(WALLET_CHAT, False),
    ]
    *texts, result = lines(streamed)
    assert texts == [
        {"kind": "text", "delta": "Let "},
        {"kind": "text", "delta": "me "},
        {"kind": "text", "delta": "look."},
    ]
    assert result["kind"] == "result"
    assert result["result"]["message"]["toolCalls"][0]["name"] == "search_books"
    assert result["result"]["message"]["toolCalls"][0]["arguments"] == {"mood": "calm"}
    assert result["result"]["finishReason"] == "toolCalls"
    assert result["result"]["usage"]["inputTokens"] == 12
    assert lines(whole) == [
        {"kind": "text", "delta": "Try Stoner."},
        {
            "kind": "result",
            "result": {
                "message": {"role": "assistant", "content": "Try Stoner."},
                "finishReason": "stop",
                "model": "double-model",
            },
        },
    ]

    with served(file) as url:  # no model server: the cassette alone
        assert lines(httpx.post(f"{url}/wallet/chat", json=WALLET_CHAT)) == lines(streamed)
        assert lines(httpx.post(f"{url}/wallet/chat", json={**WALLET_CHAT, "stream": False})) == lines(whole)


def test_a_wallet_chats_events_arrive_as_the_model_streams_them(tmp_path):
    with ModelDouble() as model:
        held = model.reply("First then more.", hold_after=1)
        with (
            served(tmp_path / "answers.json", "--record", "all", model_url=model.url) as url,
            httpx.stream(
                "POST", f"{url}/wallet/chat", json=WALLET_CHAT, timeout=HOLD_BOUND_SECONDS
            ) as answer,
        ):
            arriving = answer.iter_lines()
            # The model holds the rest of its answer until this first piece has come through.
            assert json.loads(next(arriving)) == {"kind": "text", "delta": "First "}
            held.set()
            rest = [json.loads(line) for line in arriving]
    assert [event["kind"] for event in rest] == ["text", "text", "result"]


def test_a_wallet_chat_never_recorded_gets_409_before_any_event(tmp_path):
    file = tmp_path / "answers.json"
    with ModelDouble() as model:
        model.reply("Try Stoner.")
        with served(file, "--record", "all", model_url=model.url) as url:
            httpx.post(f"{url}/wallet/chat", json=WALLET_CHAT)
    with served(file) as url:
        cheerful = {**WALLET_CHAT, "messages": [{"role": "user", "content": "A cheerful book?"}]}
        refused = httpx.post(f"{url}/wallet/chat", json=cheerful)
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/json"
    assert (
        'messages[0].content: recorded "A calm book?", asked "A cheerful book?"'
        in refused.json()["error"]["message"]
    )


def test_a_wallet_chat_with_no_messages_or_a_stream_that_is_not_a_boolean_is_refused(tmp_path):
    file = tmp_path / "answers.json"
    file.write_text('{"testwallet_cassette": 1, "entries": []}\n')
    with served(file) as url:
        assert httpx.post(f"{url}/wallet/chat", json={"tools": []}).status_code == 400
        assert httpx.post(f"{url}/wallet/chat", json={**WALLET_CHAT, "stream": "yes"}).status_code == 400
    assert file.read_text() == '{"testwallet_cassette": 1, "entries": []}\n'


def test_a_web_pages_request_or_a_body_that_is_not_json_reaches_no_model_and_writes_nothing(tmp_path):
    """
    While a developer records, another site's page (a no-cors text/plain POST, a fetch with its
    Origin) or a DNS-rebinding page (its own Host) must not reach the model with the developer's
    key, nor be written into the cassette that CI replays.
    """
    file = tmp_path / "answers.json"
    body = json.dumps(QUESTION).encode()
    with ModelDouble() as model:
        model.reply("Try *Stoner*.")
        with served(file, "--record", "all", model_url=model.url) as url:
            port = url.split(":")[2].split("/")[0]
            json_type = {"Content-Type": "application/json"}
            refusals = {
                "rebinding Host": ({**json_type, "Host": f"attacker.example:{port}"}, 403),
                "another port": ({**json_type, "Host": "127.0.0.1:1"}, 403),
                "an Origin": ({**json_type, "Origin": "https://other.example"}, 403),
                "the null Origin": ({**json_type, "Origin": "null"}, 403),
                "cross-site": ({**json_type, "Sec-Fetch-Site": "cross-site"}, 403),
                "same-site": ({**json_type, "Sec-Fetch-Site": "same-site"}, 403),
                "text/plain": ({"Content-Type": "text/plain;charset=UTF-8"}, 415),
                "a form": ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
                "no Content-Type": ({}, 415),
            }
            for path in ("/chat/completions", "/wallet/chat"):
                for why, (headers, status) in refusals.items():
                    refused = httpx.post(f"{url}{path}", content=body, headers=headers)
                    assert refused.status_code == status, (path, why, refused.text)
                    assert refused.json()["error"]["status"] == status
            assert model.requests == []
            assert not file.exists()
            # The same request from its own client (as Node's fetch or httpx sends it) is answered.
            answered = httpx.post(
                f"{url}/chat/completions", content=body, headers={**json_type, "Sec-Fetch-Mode": "cors"}
            )
    assert answered.status_code == 200, answered.text
    assert len(model.requests) == 1
    assert len(json.loads(file.read_text())["entries"]) == 1
