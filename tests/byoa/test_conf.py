"""byoa.conf: every setting declared once; its checks are generated from the declaration."""

import pytest
from django.core import checks as django_checks

from byoa import checks
from byoa.conf import DEFAULTS, SETTINGS, byoa_setting

NUMBERS = [setting.name for setting in SETTINGS if setting.is_number]


def ids(found):
    return [message.id for message in found]


@pytest.mark.parametrize("name", NUMBERS)
@pytest.mark.parametrize("value", [0, -1, "5", True, None])
def test_every_number_setting_that_is_not_a_positive_number_is_reported(settings, name, value):
    settings.BYOA = {**settings.BYOA, name: value}
    [error] = [message for message in checks.check_settings(None) if message.id == "byoa.E002"]
    assert error.msg == f"BYOA[{name!r}] must be a positive number; it is {value!r}."
    assert error.level == django_checks.ERROR


def test_the_timing_settings_of_processes_and_calls_are_checked_too():
    # Once left out of the hand-kept list of number settings.
    assert {"LIVE_SECONDS", "PING_SECONDS", "CALL_SECONDS"} <= set(NUMBERS)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [("CALL_LOG", "yes", "bool"), ("WS_PATH", 8000, "str"), ("MANIFESTS", ["geo.json"], "Mapping")],
)
def test_a_setting_of_the_wrong_type_is_reported_with_its_meaning_and_default(
    settings, name, value, expected
):
    settings.BYOA = {**settings.BYOA, name: value}
    [error] = [message for message in checks.check_settings(None) if message.id == "byoa.E005"]
    assert error.msg.startswith(f"BYOA[{name!r}] must be {expected}; it is {value!r}")
    declared = next(setting for setting in SETTINGS if setting.name == name)
    assert declared.doc in error.hint and declared.shown_default in error.hint


def test_the_defaults_pass_every_check(settings):
    settings.BYOA = {}
    assert checks.check_settings(None) == []


def test_a_changed_setting_is_read_at_its_next_use(settings):
    assert byoa_setting("CALL_SECONDS") == DEFAULTS["CALL_SECONDS"]
    settings.BYOA = {**settings.BYOA, "CALL_SECONDS": 3}
    assert byoa_setting("CALL_SECONDS") == 3


def test_the_defaults_cannot_be_changed_in_place():
    with pytest.raises(TypeError):
        DEFAULTS["CALL_SECONDS"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        DEFAULTS["MANIFESTS"]["x"] = "y.json"  # type: ignore[index]
