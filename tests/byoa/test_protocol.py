"""The frames' one parser: JSON objects in, anything else refused as not JSON."""

import json
import re
from pathlib import Path

import pytest

from byoa.wire import protocol


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"hello","grant":{"limits":{"maxParallelCalls":NaN}}}',
        '{"type":"ping","x":Infinity}',
        '{"type":"ping","x":[-Infinity]}',
        '{"type":"ping","x":1e999}',  # JSON syntax, but a double cannot hold it: Python reads Infinity
    ],
)
def test_nan_and_infinities_are_not_json(text):
    with pytest.raises(protocol.NotJSON):
        protocol.parse(text)


def test_an_integer_over_4300_digits_is_not_json():
    # Valid JSON, but Python refuses to convert it (sys.get_int_max_str_digits).
    with pytest.raises(protocol.NotJSON):
        protocol.parse('{"type":"result","id":' + "9" * 4301 + "}")


def test_ordinary_numbers_still_parse():
    assert protocol.parse('{"type":"ping","a":1.5e10,"b":-0.25,"c":' + "9" * 4300 + "}")["a"] == 1.5e10


def test_an_integer_beyond_64_bits_stays_an_exact_integer():
    frame = protocol.parse('{"type":"result","id":1,"output":{"n":123456789012345678901234567890}}')
    assert frame["output"]["n"] == 123456789012345678901234567890


def test_a_lone_surrogate_escape_is_not_json():
    # Issue 40: no database, hash or encoder downstream takes it (tests/byoa/test_surrogates.py).
    with pytest.raises(protocol.NotJSON):
        protocol.parse('{"type":"chunk","id":1,"delta":"\\ud800"}')


@pytest.mark.parametrize("text", ["[1,2]", '"hello"', "3", "null"])
def test_json_that_is_not_an_object_means_nothing(text):
    assert protocol.parse(text) is None


def test_a_call_frame_from_its_checked_fields_and_input_is_the_frame_dump_writes():
    input = {"messages": [{"role": "user", "content": 'é \u2028 "q"'}]}
    text = protocol.call_text(7, "text.generate", {"n": 1}, protocol.call_input(input))
    assert text == protocol.dump(protocol.call(7, "text.generate", input, {"n": 1}))
    assert protocol.parse(text)["id"] == 7


def test_make_run_serves_frames_up_to_the_protocols_limit():
    # The Makefile cannot import byoa.wire.protocol: this keeps its copy for uvicorn's --ws-max-size true.
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    assert (
        int(re.search(r"^WS_MAX := (\d+)$", makefile, flags=re.MULTILINE).group(1))
        == protocol.MAX_FRAME_BYTES
    )
    assert "--ws-max-size $(WS_MAX)" in makefile


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"result","id":1,"output":{"n":123456789012345678901234567890}}',
        '{"type":"result","id":1,"output":{"n":-99999999999999999999}}',
        '{"type":"result","id":1,"output":{"s":"é' + "1" * 30 + '","n":18446744073709551616}}',
    ],
)
def test_long_integers_stay_exact_wherever_the_digits_are(text):
    assert protocol.parse(text) == json.loads(text)


def test_digits_of_other_scripts_and_short_runs_parse_as_json():
    text = '{"type":"chunk","id":1,"delta":"' + "٣" * 40 + "123456789012345678 " * 50 + '"}'
    assert protocol.parse(text) == json.loads(text)
