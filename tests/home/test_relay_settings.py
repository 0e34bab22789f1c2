"""The relay's settings: who the banner names, and the system check for values it cannot use."""

import pytest
from django.core import checks

from sites.home.relay.checks import check_relay_settings
from sites.home.relay.conf import relay_settings


def test_without_a_model_url_the_scripted_player_answers(settings):
    settings.TESTWALLET = {}
    conf = relay_settings()
    assert (conf.scripted, conf.label, conf.timeout, conf.transcribe_model) == (True, "scripted", 120.0, "whisper-1")


def test_label_names_the_model_and_its_host_but_never_the_key(settings):
    settings.TESTWALLET = {"MODEL_URL": "http://127.0.0.1:11434/v1/", "MODEL": "llama3.2", "MODEL_KEY": "sk-secret"}
    conf = relay_settings()
    assert (conf.model_url, conf.label) == ("http://127.0.0.1:11434/v1", "llama3.2 at 127.0.0.1:11434")


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"TIMEOUT": "soon"}, "must be a number of seconds, not 'soon'"),
        ({"TIMEOUT": "0"}, "must be more than 0 seconds"),
        ({"MODEL_URL": "127.0.0.1:11434/v1"}, "TESTWALLET['MODEL_URL'] must be an http:// or https:// URL"),
        ({"TRANSCRIBE_URL": "file:///etc/passwd"}, "TESTWALLET['TRANSCRIBE_URL'] must be an http:// or https:// URL"),
    ],
)
def test_check_reports_a_value_the_relay_cannot_use(settings, given, words):
    settings.TESTWALLET = given
    (error,) = check_relay_settings(None)
    assert error.id == "testwallet.E001" and error.level == checks.ERROR
    assert words in error.msg


def test_check_is_registered_and_quiet_for_good_settings(settings):
    settings.TESTWALLET = {"MODEL_URL": "http://127.0.0.1:1234/v1", "TIMEOUT": "30"}
    assert [e for e in checks.run_checks(tags=["testwallet"]) if e.id.startswith("testwallet.")] == []
