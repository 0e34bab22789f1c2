"""
``python -m testwallet.cassette serve``: a cassette as an OpenAI-compatible model server on a
loopback port, in its own process, as the npm fixtures start it. It records what the model
double answers (``--record all``), replays it with no model server, streamed and not, and
refuses a request never recorded with what differs; a broken file is refused at start.
"""

import contextlib
import json
import os
import selectors
import subprocess
import sys

import httpx
import pytest

from tests.testwallet.relay.model_double import ModelDouble

pytestmark = pytest.mark.live  # a server process of its own

#: How long the server may take to say where it serves.
START_BOUND_SECONDS = 20
QUESTION = {"messages": [{"role": "user", "content": "A calm book?"}]}


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
        assert httpx.post(f"{url}/chat/completions", content=b"{not json").status_code == 400
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
