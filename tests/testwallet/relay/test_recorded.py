"""
The relay with a cassette (TESTWALLET_CASSETTE): one daphne records what the model
double answers, another, with no model server at all, replays it to the page
event for event; a request never recorded is refused with what differs, and the
file holds no token, cookie or key.
"""

import base64
import json

import pytest

from tests.testwallet.relay.model_double import SETUP, ModelDouble
from tests.testwallet.relay.test_relay import TRANSCRIBE, ask, visit
from testwallet.server import DaphneServer

pytestmark = pytest.mark.live

CLIP = b"RIFF" + bytes(range(256)) * 64
TOOL = {"name": "search_books", "inputSchema": {"type": "object"}}


def serve(tmp_path_factory, name, **env):
    return DaphneServer(
        "sites.config.asgi:application",
        env={"DJANGO_DEBUG": "1", "TESTWALLET_MODEL_URL": "", "TESTWALLET_TRANSCRIBE_URL": "", **env},
        setup_commands=SETUP,
        workdir=tmp_path_factory.mktemp(name),
    )


def clip():
    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(CLIP).decode()}, "language": "en"}


@pytest.fixture(scope="module")
async def recording(tmp_path_factory):
    """Record one session through the relay, against the model double: what the page got, and the file."""
    cassette = tmp_path_factory.mktemp("cassette") / "session.json"
    with ModelDouble() as model:
        model.reply(tool_calls=[("search_books", {"query": "calm"})])
        model.reply("yes")
        model.transcript("Peru")
        env = {
            "TESTWALLET_MODEL_URL": model.url,
            "TESTWALLET_MODEL_KEY": "sk-double-key",
            "TESTWALLET_TRANSCRIBE_URL": model.url,
            "TESTWALLET_CASSETTE": str(cassette),
            "TESTWALLET_RECORD": "all",
        }
        with serve(tmp_path_factory, "recording", **env) as server:
            visitor = await visit(server)
            got = [
                (await visitor.chat(ask("A calm book?", tools=[TOOL]))).text,
                (await visitor.generate("Is it alive?", maxTokens=5)).json(),
                (await visitor.client.post(TRANSCRIBE, json=clip(), headers=visitor.headers())).json(),
            ]
            cookies = [value for value in visitor.client.cookies.values() if len(value) >= 16]  # not "1"
            secrets = [visitor.relay["token"], visitor.relay["csrf"], *cookies]
            await visitor.client.aclose()
        asked = len(model.requests)
    return {"cassette": cassette, "got": got, "secrets": secrets, "asked": asked}


@pytest.fixture(scope="module")
def replay_server(recording, tmp_path_factory):
    """The project with no model server and no transcription server: only the cassette answers."""
    with serve(tmp_path_factory, "replaying", TESTWALLET_CASSETTE=str(recording["cassette"])) as server:
        yield server


@pytest.fixture
async def replaying(replay_server):
    visitor = await visit(replay_server)
    yield visitor
    await visitor.client.aclose()


async def test_a_replayed_stream_reaches_the_page_event_for_event_as_it_was_recorded(recording, replaying):
    replayed = (await replaying.chat(ask("A calm book?", tools=[TOOL]))).text

    assert replayed == recording["got"][0]
    *_, result = map(json.loads, replayed.splitlines())
    assert result["result"]["message"]["toolCalls"][0]["name"] == "search_books"


async def test_a_replayed_chat_and_clip_answer_as_recorded_with_no_model_server(recording, replaying):
    assert (
        (await replaying.generate("Is it alive?", maxTokens=5)).json()
        == recording["got"][1]
        == {"text": "yes"}
    )
    heard = await replaying.client.post(TRANSCRIBE, json=clip(), headers=replaying.headers())
    assert heard.json() == recording["got"][2] == {"text": "Peru"}
    assert recording["asked"] == 3  # the double was asked while recording, once per request


async def test_a_question_never_recorded_is_refused_with_how_it_differs(replaying, replay_server):
    response = await replaying.chat(ask("A cheerful book?", tools=[TOOL]))

    assert response.status_code == 409
    message = response.json()["error"]["message"]
    assert 'No recorded answer for the streamed chat request ending "A cheerful book?"' in message
    assert 'messages[0].content: recorded "A calm book?", asked "A cheerful book?"' in message
    assert replay_server.wait_for_output('ending "A cheerful book?"')  # and the test report shows it


async def test_the_page_says_the_answers_are_recorded_and_is_never_scripted(replaying):
    assert replaying.relay["model"] == "the answers recorded in session.json"
    assert replaying.relay["scripted"] is False


def test_the_cassette_holds_no_token_cookie_or_key(recording):
    text = recording["cassette"].read_text()

    for secret in [*recording["secrets"], "sk-double-key"]:
        assert secret not in text
    assert base64.b64encode(CLIP).decode()[:40] not in text
    entries = json.loads(text)["entries"]
    assert [entry["way"] for entry in entries] == ["chat", "chat", "transcribe"]


async def test_a_missing_cassette_is_an_error_naming_the_file(tmp_path_factory, tmp_path):
    missing = tmp_path / "never-recorded.json"
    with serve(tmp_path_factory, "missing", TESTWALLET_CASSETTE=str(missing)) as server:
        visitor = await visit(server)
        response = await visitor.chat(ask("hi"))
        await visitor.client.aclose()
    assert response.status_code == 500
    assert str(missing) in response.json()["error"]["message"]


async def test_recording_what_is_new_with_no_model_server_says_which_to_name(recording, tmp_path_factory):
    env = {"TESTWALLET_CASSETTE": str(recording["cassette"]), "TESTWALLET_RECORD": "new"}
    with serve(tmp_path_factory, "new-without-model", **env) as server:
        visitor = await visit(server)
        response = await visitor.chat(ask("Something new?"))
        await visitor.client.aclose()
    assert response.status_code == 502
    assert "no server is named to answer it (TESTWALLET_MODEL_URL)" in response.json()["error"]["message"]
