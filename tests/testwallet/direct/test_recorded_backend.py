"""The headless wallet's text.generate through a cassette: recorded once, replayed with no model server."""

import base64
import json

import httpx
import pytest

from testwallet.cassette import Cassette, Mode
from testwallet.direct import BackendError
from testwallet.direct.backends import OpenAICompatibleBackend, ScriptedBackend

INPUT = {"messages": [{"role": "user", "content": "Is it an animal?"}]}


def model_server(asked):
    def answer(request):
        body = json.loads(request.content)
        asked.append(body)
        if body["stream"]:
            events = [
                {"id": "x", "choices": [{"delta": {"content": piece}}]}
                for piece in ("QUESTION: ", "Does it fly?")
            ]
            text = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + "data: [DONE]\n\n"
            return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})
        message = {"role": "assistant", "content": "yes"}
        return httpx.Response(200, json={"id": "c1", "created": 1, "choices": [{"message": message}]})

    return httpx.AsyncClient(transport=httpx.MockTransport(answer))


def unreachable():
    def refuse(request):
        raise AssertionError("replay asked the model server")

    return httpx.AsyncClient(transport=httpx.MockTransport(refuse))


async def test_text_generate_and_its_stream_replay_as_recorded_with_no_model_server(tmp_path):
    path, asked = tmp_path / "direct.json", []
    recording = OpenAICompatibleBackend(
        "http://model/v1", {"m1": "smol"}, client=model_server(asked), cassette=Cassette(path, Mode.ALL)
    )
    said = await recording.run("text.generate", INPUT, {})
    streamed = [piece async for piece in recording.stream("text.generate", INPUT, {})]

    replay = OpenAICompatibleBackend("", {"m1": "smol"}, client=unreachable(), cassette=Cassette(path))
    assert await replay.run("text.generate", INPUT, {}) == said == {"text": "yes"}
    assert [piece async for piece in replay.stream("text.generate", INPUT, {})] == streamed
    assert streamed == ["QUESTION: ", "Does it fly?"] and len(asked) == 2


async def test_a_call_never_recorded_answers_ok_false_with_what_differs(tmp_path):
    path = tmp_path / "direct.json"
    recording = OpenAICompatibleBackend(
        "http://m/v1", {"m1": "s"}, client=model_server([]), cassette=Cassette(path, Mode.ALL)
    )
    await recording.run("text.generate", INPUT, {})

    replay = OpenAICompatibleBackend("", {"m1": "s"}, client=unreachable(), cassette=Cassette(path))
    other = {"messages": [{"role": "user", "content": "Is it a plant?"}]}
    with pytest.raises(BackendError, match=r'recorded "Is it an animal\?", asked "Is it a plant\?"'):
        await replay.run("text.generate", other, {})


def clip_input(wav=b"RIFF-a-clip"):
    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(wav).decode()}}


async def test_a_transcribers_answers_are_recorded_by_clip_and_replayed_without_it(tmp_path):
    from testwallet.direct.recorded import RecordedBackend

    path = tmp_path / "heard.json"
    heard = ScriptedBackend({"audio.transcribe": lambda input, params: {"text": "Peru."}})
    recording = RecordedBackend(heard, Cassette(path, Mode.ALL))
    assert await recording.run("audio.transcribe", clip_input(), {"language": "en"}) == {"text": "Peru."}
    (entry,) = json.loads(path.read_text())["entries"]
    assert entry["asked"]["clip"].startswith("sha256:") and "RIFF" not in path.read_text()  # never the audio

    deaf = ScriptedBackend({})  # answers nothing: a replay that asked it would fail
    replay = RecordedBackend(deaf, Cassette(path))
    assert await replay.run("audio.transcribe", clip_input(), {"language": "en"}) == {"text": "Peru."}
    assert [piece async for piece in replay.stream("audio.transcribe", clip_input(), {"language": "en"})] == [
        "Peru."
    ]
    assert deaf.calls == []


async def test_a_clip_never_recorded_is_refused_naming_the_nearest_one_and_the_transcriber_is_not_asked(
    tmp_path,
):
    from testwallet.direct.recorded import RecordedBackend

    path = tmp_path / "heard.json"
    heard = ScriptedBackend({"audio.transcribe": {"text": "Peru."}})
    await RecordedBackend(heard, Cassette(path, Mode.ALL)).run("audio.transcribe", clip_input(), {})
    deaf = ScriptedBackend({"audio.transcribe": {"text": "not to be heard"}})
    missed = r"No recorded answer for the transcription of clip .*nearest is entry 0: .*clip: recorded"
    with pytest.raises(BackendError, match=missed):
        await RecordedBackend(deaf, Cassette(path)).run("audio.transcribe", clip_input(b"another clip"), {})
    assert deaf.calls == []
    with pytest.raises(BackendError, match="not a base64 WAV clip"):
        await RecordedBackend(deaf, Cassette(path)).run("audio.transcribe", {"audio": {"base64": "%%"}}, {})


async def test_other_skills_go_to_the_wrapped_backend_unrecorded(tmp_path):
    from testwallet.direct.recorded import RecordedBackend

    path = tmp_path / "heard.json"
    script = ScriptedBackend({"text.generate": {"text": "scripted"}})
    recorded = RecordedBackend(script, Cassette(path, Mode.ALL))
    assert await recorded.run("text.generate", INPUT, {}) == {"text": "scripted"}
    assert recorded.skills() == {"text.generate"} and not path.exists()
