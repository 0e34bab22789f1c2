"""The cassette's modes: replay tells the truth, new records only what is missing, all records anew."""

import json

import pytest

from testwallet.cassette import Cassette, Mode, NotRecorded


def chat(text, stream=False):
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": text}]
    return {"messages": messages, "stream": stream}


def completion(text):
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]
    }


def events(*deltas):
    return [{"id": f"x{n}", "choices": [{"index": 0, "delta": {"content": d}}]} for n, d in enumerate(deltas)]


class Model:
    """A model server's client that counts how often it is asked."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = 0

    async def __call__(self):
        self.asked += 1
        return self.answers.pop(0)

    async def stream(self):
        self.asked += 1
        items = self.answers.pop(0)

        async def each():
            for item in items:
                yield item

        return each()


def never():
    raise AssertionError("replay asked the model server")


async def test_replay_answers_from_the_recording_and_never_asks_the_model(tmp_path):
    path = tmp_path / "c.json"
    await Cassette(path, Mode.ALL).chat(chat("hi"), Model(completion("Hello")))

    replay = Cassette(path)
    assert (await replay.chat(chat("hi"), never))["choices"][0]["message"]["content"] == "Hello"


async def test_an_unrecorded_request_names_itself_and_how_it_differs_from_the_nearest(tmp_path):
    path = tmp_path / "c.json"
    recording = Cassette(path, Mode.ALL)
    await recording.chat(chat("Find me a calm book"), Model(completion("Try Stoner.")))
    await recording.chat({"messages": [{"role": "user", "content": "other"}]}, Model(completion("x")))

    with pytest.raises(NotRecorded) as raised:
        await Cassette(path).chat(chat("Find me a calm novel"), never)

    message = str(raised.value)
    assert 'the chat request ending "Find me a calm novel"' in message
    difference = 'messages[1].content: recorded "Find me a calm book", asked "Find me a calm novel"'
    assert f"nearest is entry 0: {difference}" in message
    assert str(path) in message and "TESTWALLET_RECORD=new" in message


async def test_new_replays_what_is_recorded_and_records_only_what_is_not(tmp_path):
    path = tmp_path / "c.json"
    await Cassette(path, Mode.ALL).chat(chat("hi"), Model(completion("Hello")))
    model = Model(completion("Bye"))

    cassette = Cassette(path, Mode.NEW)
    await cassette.chat(chat("hi"), model)
    await cassette.chat(chat("bye"), model)

    assert model.asked == 1
    assert [e["asked"]["messages"][1]["content"] for e in json.loads(path.read_text())["entries"]] == [
        "hi",
        "bye",
    ]


async def test_all_records_anew_over_an_older_recording(tmp_path):
    path = tmp_path / "c.json"
    await Cassette(path, Mode.ALL).chat(chat("hi"), Model(completion("Hello")))
    await Cassette(path, Mode.ALL).chat(chat("hi"), Model(completion("Hi there")))

    assert await Cassette(path).chat(chat("hi"), never) == completion("Hi there")


async def test_the_same_request_asked_twice_replays_its_two_answers_in_order(tmp_path):
    path = tmp_path / "c.json"
    recording = Cassette(path, Mode.ALL)
    model = Model(completion("one"), completion("two"))
    await recording.chat(chat("again"), model)
    await recording.chat(chat("again"), model)

    replay = Cassette(path)
    answers = [
        (await replay.chat(chat("again"), never))["choices"][0]["message"]["content"] for _ in range(3)
    ]
    assert answers == ["one", "two", "two"]


async def test_a_stream_replays_the_same_events_in_the_same_order(tmp_path):
    path = tmp_path / "c.json"
    model = Model(events("A calm ", "pick", "."))
    recorded = [e async for e in await Cassette(path, Mode.ALL).chat_stream(chat("hi", True), model.stream)]

    replayed = [e async for e in await Cassette(path).chat_stream(chat("hi", True), never)]
    assert replayed == recorded
    assert [e["choices"][0]["delta"]["content"] for e in replayed] == ["A calm ", "pick", "."]
    assert all("id" not in e for e in replayed)


async def test_a_stream_the_model_server_broke_off_is_passed_on_and_not_recorded(tmp_path):
    path = tmp_path / "c.json"
    model = Model([*events("A "), {"error": {"message": "gone", "status": 502}}])
    got = [e async for e in await Cassette(path, Mode.ALL).chat_stream(chat("hi", True), model.stream)]

    assert got[-1] == {"error": {"message": "gone", "status": 502}}
    assert not path.exists()


async def test_pacing_is_recorded_only_when_asked_for(tmp_path):
    plain, paced = tmp_path / "plain.json", tmp_path / "paced.json"
    for path, pacing in ((plain, False), (paced, True)):
        cassette = Cassette(path, Mode.ALL, pacing=pacing)
        stream = await cassette.chat_stream(chat("hi", True), Model(events("a", "b")).stream)
        [e async for e in stream]

    assert "pacing_ms" not in plain.read_text()
    (entry,) = json.loads(paced.read_text())["entries"]
    assert len(entry["answer"]["pacing_ms"]) == 2


async def test_a_clip_is_recorded_by_its_hash_never_its_audio(tmp_path):
    path = tmp_path / "c.json"
    wav = b"RIFF" + bytes(range(256)) * 40

    async def heard():
        return {"text": "Peru"}

    await Cassette(path, Mode.ALL).transcribe(wav, "en", heard)

    (entry,) = json.loads(path.read_text())["entries"]
    assert entry["asked"]["clip"].startswith("sha256:") and entry["asked"]["bytes"] == len(wav)
    assert "UklGR" not in path.read_text()  # the clip's base64
    assert await Cassette(path).transcribe(wav, "en", never) == {"text": "Peru"}
    with pytest.raises(NotRecorded, match=r"clip sha256:.*nearest is entry 0: bytes: recorded"):
        await Cassette(path).transcribe(wav + b"\0\0", "en", never)


async def test_a_secret_the_cassette_was_given_never_reaches_the_file(tmp_path):
    path = tmp_path / "c.json"
    cassette = Cassette(path, Mode.ALL, secrets=["sk-very-secret"])
    await cassette.chat(chat("my key is sk-very-secret"), Model(completion("I saw sk-very-secret")))

    assert "sk-very-secret" not in path.read_text() and "[redacted]" in path.read_text()


def test_an_unknown_record_mode_is_refused_with_the_three_that_exist():
    with pytest.raises(ValueError, match="all, new or none, not 'sometimes'"):
        Cassette.from_environment({"TESTWALLET_CASSETTE": "x.json", "TESTWALLET_RECORD": "sometimes"})


def test_no_cassette_is_named_without_testwallet_cassette():
    assert Cassette.from_environment({"TESTWALLET_RECORD": "all"}) is None
