"""The one spelling of a yes/no environment switch."""

import pytest

from byoa.environment import env_flag


@pytest.mark.parametrize(
    ("value", "on"),
    [
        ("1", True),
        (" Yes ", True),
        ("TRUE", True),
        ("on", True),
        ("0", False),
        ("", False),
        ("off", False),
        ("2", False),
    ],
)
def test_a_set_switch_is_on_only_for_the_on_spellings(monkeypatch, value, on):
    monkeypatch.setenv("VISITOR_AI_TEST_SWITCH", value)
    assert env_flag("VISITOR_AI_TEST_SWITCH", default=not on) is on


def test_an_unset_switch_takes_its_default(monkeypatch):
    monkeypatch.delenv("VISITOR_AI_TEST_SWITCH", raising=False)
    assert env_flag("VISITOR_AI_TEST_SWITCH") is False
    assert env_flag("VISITOR_AI_TEST_SWITCH", default=True) is True
