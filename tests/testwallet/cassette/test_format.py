"""The cassette file: reviewable, stable, never half written, and every bad file named."""

import json
import os

import pytest

from testwallet.cassette import FORMAT, Cassette, CassetteUnreadable, Mode, format


def chat(text, *extra):
    return {"model": "m", "messages": [{"role": "user", "content": text}, *extra], "stream": False}


def completion(text, call_id="chatcmpl-1"):
    return {
        "id": call_id,
        "created": 1733550000,
        "system_fingerprint": "b1",
        "model": "smol",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }


async def record(path, answers):
    cassette = Cassette(path, Mode.ALL)
    for asked, answer in answers:
        await cassette.chat(chat(asked), lambda answer=answer: _now(answer))


async def _now(value):
    return value


async def test_recording_the_same_answers_twice_writes_the_same_bytes(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    await record(first, [("hi", completion("Hello", "chatcmpl-a")), ("bye", completion("Bye", "chatcmpl-b"))])
    await record(
        second, [("hi", completion("Hello", "chatcmpl-c")), ("bye", completion("Bye", "chatcmpl-d"))]
    )

    assert first.read_bytes() == second.read_bytes()
    text = first.read_text()
    assert "chatcmpl" not in text and "1733550000" not in text and "fingerprint" not in text
    assert json.loads(text)["testwallet_cassette"] == FORMAT


async def test_a_cassette_is_indented_with_sorted_keys_one_entry_per_request(tmp_path):
    path = tmp_path / "c.json"
    await record(path, [("hi", completion("Hello"))])

    document = json.loads(path.read_text())
    assert path.read_text() == json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
    (entry,) = document["entries"]
    assert entry["way"] == "chat" and "model" not in entry["asked"]
    assert entry["answer"]["completion"]["choices"][0]["message"]["content"] == "Hello"


def test_tool_call_ids_are_numbered_by_first_use_so_any_id_scheme_matches():
    def conversation(call_id):
        return chat(
            "find a book",
            {"role": "assistant", "content": "", "tool_calls": [{"id": call_id, "type": "function"}]},
            {"role": "tool", "tool_call_id": call_id, "content": "[]"},
        )

    assert format.chat_asked(conversation("call_x9")) == format.chat_asked(conversation("abc"))
    assert format.chat_asked(conversation("abc"))["messages"][2]["tool_call_id"] == "call_1"


def test_an_answers_tool_call_ids_come_from_the_request_not_the_model_server():
    asked = format.chat_asked(chat("find"))
    answer = {"choices": [{"message": {"tool_calls": [{"id": "random-1", "function": {"name": "f"}}]}}]}

    first = format.answer_object(answer, asked)["choices"][0]["message"]["tool_calls"][0]["id"]
    again = format.answer_object(answer, format.chat_asked(chat("find")))["choices"][0]["message"][
        "tool_calls"
    ][0]
    assert first == again["id"] and first.startswith("call_") and first != "random-1"


def test_a_missing_cassette_is_an_error_naming_the_file_and_how_to_record_it(tmp_path):
    path = tmp_path / "none.json"
    with pytest.raises(CassetteUnreadable) as raised:
        Cassette(path)
    assert str(path) in str(raised.value) and "TESTWALLET_RECORD=all" in str(raised.value)


def test_a_file_that_is_not_json_is_an_error_naming_the_file_and_the_place(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"testwallet_cassette": 1, "entries": [}\n]}')
    with pytest.raises(CassetteUnreadable, match=r"not JSON.*line 1, column 40") as raised:
        Cassette(path)
    assert str(path) in str(raised.value)


async def test_a_truncated_cassette_is_told_apart_from_one_that_is_not_json(tmp_path):
    path = tmp_path / "c.json"
    await record(path, [("hi", completion("Hello"))])
    whole = path.read_text()
    path.write_text(whole[: len(whole) // 2])
    with pytest.raises(CassetteUnreadable, match="truncated") as raised:
        Cassette(path)
    assert str(path) in str(raised.value)


def test_a_cassette_of_a_newer_format_is_refused_by_name(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"testwallet_cassette": FORMAT + 1, "entries": []}))
    with pytest.raises(CassetteUnreadable, match=f"format {FORMAT + 1}, newer") as raised:
        Cassette(path)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize(
    "document",
    [
        [],
        {"entries": []},
        {"testwallet_cassette": 1},
        {"testwallet_cassette": 1, "entries": [{"way": "fax"}]},
    ],
)
def test_json_that_is_not_a_cassette_is_refused_by_name(tmp_path, document):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CassetteUnreadable) as raised:
        Cassette(path)
    assert str(path) in str(raised.value)


async def test_a_failed_write_leaves_the_old_cassette_whole_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    await record(path, [("hi", completion("Hello"))])
    before = path.read_bytes()
    cassette = Cassette(path, Mode.NEW)

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk full"):
        await cassette.chat(chat("bye"), lambda: _now(completion("Bye")))

    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]
