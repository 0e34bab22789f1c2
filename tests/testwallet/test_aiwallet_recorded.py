"""
The test AI Wallet answering from a model through a cassette (``aiwallet.answer_from_model``, or
the ``testwallet_cassette`` marker), in Chromium: a committed recording of a real model replays
to the page event for event with no model server; a chat never recorded is refused on the page
and fails the test, naming what differs; record mode asks the model server (the relay's model
double here) and replays what it wrote.

The recording (tests/recordings/stand-ins.json) was made by the first test, against llama.cpp's
llama-server with SmolLM2-135M-Instruct (docs/howto/recorded-answers.md)::

    TESTWALLET_MODEL_URL=http://127.0.0.1:8093/v1 .venv/bin/python -m pytest -p no:cacheprovider \\
        tests/testwallet/test_aiwallet_recorded.py -k replays --testwallet-record=all

frontend/e2e/recorded.spec.js replays the same recording through ``python -m testwallet.cassette
serve`` and the npm fixtures: the Python and the JavaScript wallet must ask the same request.
"""

import json
from pathlib import Path

import pytest

from tests.testwallet.aiwallet_cases import START, TOOLS, ask
from tests.testwallet.relay.model_double import MODEL, ModelDouble
from testwallet._openai_chat import delta_text, wallet_chat_request
from testwallet.cassette import Cassette, Mode, NotRecorded
from testwallet.relay.conf import environment_settings

pytestmark = [pytest.mark.browser, pytest.mark.live]

#: The recording, from this file's folder (the marker's path is read from the test's folder).
RECORDING = "../recordings/stand-ins.json"
CHAT = {
    "messages": [{"role": "user", "content": "Name one calm book for tonight."}],
    "tools": TOOLS,
    "options": {"maxTokens": 48, "temperature": 0},
}


def recorded_deltas():
    """Return the text pieces of the recording's one answer, in order."""
    entries = json.loads((Path(__file__).parent / RECORDING).read_text(encoding="utf-8"))["entries"]
    return [text for text in map(delta_text, entries[0]["answer"]["stream"]) if text]


@pytest.mark.testwallet_cassette(RECORDING)
async def test_a_recorded_chat_replays_to_the_page_piece_for_piece_with_no_model_server(aiwallet, connected):
    seen = await ask(connected, "chat", CHAT)

    deltas = recorded_deltas()
    assert deltas, "the recording has no text"
    assert [event["delta"] for event in seen["events"] if event["kind"] == "text"] == deltas
    assert seen["result"]["message"]["content"] == "".join(deltas)
    assert [chat.outcome for chat in aiwallet.chats] == ["answered"]


@pytest.mark.testwallet_cassette(RECORDING)
async def test_a_chat_never_recorded_is_refused_on_the_page_and_fails_the_test(aiwallet, connected):
    cheerful = {**CHAT, "messages": [{"role": "user", "content": "Name one cheerful book for tonight."}]}

    seen = await ask(connected, "chat", cheerful)

    difference = (
        'nearest is entry 0: messages[0].content: recorded "Name one calm book for tonight.", '
        'asked "Name one cheerful book for tonight."'
    )
    assert seen["error"]["status"] == 409
    assert (
        'No recorded answer for the streamed chat request ending "Name one cheerful'
        in seen["error"]["message"]
    )
    assert difference in seen["error"]["message"]
    assert [event["kind"] for event in seen["events"]] == ["settled"]  # no start: nothing answered
    with pytest.raises(NotRecorded) as refused:  # what fails the test when it does not look
        aiwallet.check()
    assert difference in str(refused.value)


@pytest.mark.testwallet_cassette(RECORDING)
async def test_a_test_waiting_for_an_answer_never_recorded_fails_within_seconds_naming_not_recorded(
    aiwallet, connected
):
    from playwright.async_api import Error

    await connected.evaluate(START, ["chat", {**CHAT, "options": {}}])
    # What a page test does: wait for the answer's text, with Playwright's own 30 s bound. The
    # wallet closes the page with the refusal once the test has not read it for a few seconds.
    with pytest.raises(Error) as ended:
        await connected.locator("#the-answer").wait_for(timeout=30_000)
    assert "NotRecorded: No recorded answer for the streamed chat request" in str(ended.value)
    assert "Timeout" not in str(ended.value)
    with pytest.raises(NotRecorded):  # and the fixture's teardown says the same
        aiwallet.check()


async def test_record_mode_asks_the_model_server_and_the_replay_answers_the_page_the_same(
    aiwallet, connected, tmp_path
):
    file = tmp_path / "chat.json"
    with ModelDouble() as model:
        model.reply(tool_calls=[("search_books", {"mood": "calm"})])
        model.reply("Try *Stoner*, by John Williams.")
        server = environment_settings({"TESTWALLET_MODEL_URL": model.url}, cassette=str(file), record="all")
        aiwallet.answer_from_model(Cassette(file, Mode.ALL), server)
        called = await ask(connected, "chat", CHAT)
        answered = await ask(connected, "chat", {**CHAT, "options": {}})
    assert [body["tools"][0]["function"]["name"] for body in model.chats()] == ["search_books"] * 2
    assert called["result"]["message"]["toolCalls"][0]["name"] == "search_books"
    assert called["result"]["message"]["toolCalls"][0]["arguments"] == {"mood": "calm"}
    assert called["result"]["finishReason"] == "toolCalls"
    assert answered["result"]["message"]["content"] == "Try *Stoner*, by John Williams."
    assert answered["result"]["model"] == MODEL
    entries = json.loads(file.read_text(encoding="utf-8"))["entries"]
    assert entries[0]["asked"] == wallet_chat_request(CHAT, True)

    aiwallet.answer_from_model(Cassette(file))  # replay only: the double is gone
    assert await ask(connected, "chat", CHAT) == called
    assert await ask(connected, "chat", {**CHAT, "options": {}}) == answered


#: The page's arrival time of each text piece of one chat.
TEXT_TIMES = """async (params) => {
  const times = [];
  await window.aiwallet.request('chat', params, (event) => event.kind === 'text' && times.push(performance.now()));
  return times;
}"""


async def test_with_pacing_the_page_gets_the_pieces_at_the_recorded_pace_as_they_come(
    aiwallet, connected, tmp_path
):
    document = json.loads((Path(__file__).parent / RECORDING).read_text(encoding="utf-8"))
    stream = document["entries"][0]["answer"]["stream"]
    texts = [index for index, event in enumerate(stream) if delta_text(event)]
    gaps = [0] * len(stream)
    gaps[texts[-1]] = 600  # the last piece came 0.6 s after the one before it
    document["entries"][0]["answer"]["pacing_ms"] = gaps
    paced = tmp_path / "paced.json"
    paced.write_text(json.dumps(document), encoding="utf-8")
    aiwallet.answer_from_model(Cassette(paced, pacing=True))

    times = await connected.evaluate(TEXT_TIMES, CHAT)

    assert len(times) == len(texts)
    # Streamed as replayed: the earlier pieces were on the page before the recorded wait ended.
    assert times[-1] - times[-2] >= 550, times
