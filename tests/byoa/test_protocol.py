"""The frames' one parser: JSON objects in, anything else refused as not JSON."""

import pytest

from byoa import protocol


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
