"""The relay's settings: who the banner names, and the system check for values it cannot use."""

from pathlib import Path

import pytest
from django.core import checks

from testwallet.relay import upstream
from testwallet.relay.checks import check_relay_settings
from testwallet.relay.conf import environment_settings, relay_settings


def test_without_a_model_url_the_scripted_player_answers(settings):
    settings.TESTWALLET = {}
    conf = relay_settings()
    assert (conf.scripted, conf.label, conf.timeout, conf.transcribe_model) == (
        True,
        "scripted",
        120.0,
        "whisper-1",
    )


def test_label_names_the_model_and_its_host_but_never_the_key(settings):
    settings.TESTWALLET = {
        "MODEL_URL": "http://127.0.0.1:11434/v1/",
        "MODEL": "llama3.2",
        "MODEL_KEY": "sk-secret",
    }
    conf = relay_settings()
    assert (conf.model_url, conf.label) == ("http://127.0.0.1:11434/v1", "llama3.2 at 127.0.0.1:11434")


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"TIMEOUT": "soon"}, "must be a number of seconds, not 'soon'"),
        ({"TIMEOUT": "0"}, "must be more than 0 seconds"),
        ({"MODEL_URL": "127.0.0.1:11434/v1"}, "TESTWALLET['MODEL_URL'] must be an http:// or https:// URL"),
        (
            {"TRANSCRIBE_URL": "file:///etc/passwd"},
            "TESTWALLET['TRANSCRIBE_URL'] must be an http:// or https:// URL",
        ),
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


@pytest.mark.parametrize(
    ("text", "record", "words"),
    [
        (None, "none", "There is no cassette here"),
        ('{"testwallet_cassette": 1, "entries": [', "none", "The cassette is truncated"),
        ("[1, 2] x", "new", "The cassette is not JSON"),
        ('{"testwallet_cassette": 99, "entries": []}', "none", "newer than this test wallet reads"),
    ],
)
def test_check_names_a_cassette_that_cannot_be_replayed_before_any_request(
    settings, tmp_path, text, record, words
):
    cassette = tmp_path / "answers.json"
    if text is not None:
        cassette.write_text(text)
    settings.TESTWALLET = {"CASSETTE": str(cassette), "RECORD": record}
    (error,) = check_relay_settings(None)
    assert error.id == "testwallet.E003" and error.level == checks.ERROR
    assert words in error.msg and str(cassette) in error.msg


def test_check_names_a_cassette_whose_folder_recording_cannot_write(settings, tmp_path):
    cassette = tmp_path / "no such folder" / "answers.json"
    settings.TESTWALLET = {"CASSETTE": str(cassette), "RECORD": "all", "MODEL_URL": "http://127.0.0.1:1/v1"}
    (error,) = check_relay_settings(None)
    assert (
        error.id == "testwallet.E003"
        and "cannot write the cassette" in error.msg
        and str(cassette) in error.msg
    )


@pytest.mark.parametrize("record", ["all", "new"])
def test_check_is_quiet_for_a_cassette_still_to_be_recorded(settings, tmp_path, record):
    settings.TESTWALLET = {"CASSETTE": str(tmp_path / "new.json"), "RECORD": record}
    assert check_relay_settings(None) == []


def test_check_is_quiet_for_a_recorded_cassette_in_replay(settings):
    settings.TESTWALLET = {"CASSETTE": str(Path(__file__).parents[2] / "recordings" / "bookshop.json")}
    assert check_relay_settings(None) == []


@pytest.mark.parametrize("key", ["MODEL_URL", "TRANSCRIBE_URL"])
def test_credentials_in_a_url_are_never_shown_nor_sent(settings, key):
    settings.TESTWALLET = {key: "http://user:pw@models.example:8080/v1", "MODEL": "m", "MODEL_KEY": "sk-key"}
    conf = relay_settings()
    url = conf.model_url if key == "MODEL_URL" else conf.transcribe_url
    assert url == "http://models.example:8080/v1"  # httpx would turn user:pw into Basic auth
    assert "user" not in conf.label and "pw" not in conf.label
    assert upstream.headers(conf) == {"authorization": "Bearer sk-key"}


def test_label_shows_the_host_and_port_only(settings):
    settings.TESTWALLET = {"MODEL_URL": "https://user:pw@[::1]:8443/v1?key=sk-x#frag", "MODEL": "llama3.2"}
    assert relay_settings().label == "llama3.2 at [::1]:8443"


@pytest.mark.parametrize("key", ["MODEL_URL", "TRANSCRIBE_URL"])
def test_check_refuses_credentials_in_a_url_and_names_the_key_setting(settings, key):
    settings.TESTWALLET = {key: "http://user:pw@models.example/v1"}
    (error,) = check_relay_settings(None)
    assert error.id == "testwallet.E002" and error.level == checks.ERROR
    assert "TESTWALLET_MODEL_KEY" in error.msg + error.hint
    assert "pw" not in error.msg + error.hint  # the check's own text does not repeat the secret


async def test_relay_sends_the_key_as_a_bearer_not_the_urls_credentials_as_basic_auth(settings, model):
    model.reply("hello")
    settings.TESTWALLET = {
        "MODEL_URL": model.url.replace("http://", "http://user:pw@"),
        "MODEL_KEY": "sk-key",
    }
    completion = await upstream.complete_chat(
        relay_settings(), {"messages": [{"role": "user", "content": "hi"}]}
    )
    assert completion["choices"][0]["message"]["content"] == "hello"
    assert model.authorizations == ["Bearer sk-key"]


def test_outside_django_the_environment_gives_the_same_settings_pacing_included():
    conf = environment_settings(
        {"TESTWALLET_MODEL_URL": "http://user:pw@127.0.0.1:8080/v1/", "TESTWALLET_PACING": "1"},
        cassette="answers.json",
        record="new",
    )
    assert (conf.model_url, conf.pacing, conf.cassette, conf.record) == (
        "http://127.0.0.1:8080/v1",
        True,
        "answers.json",
        "new",
    )
    with pytest.raises(ValueError, match=r"MODEL_URL'\] must be an http:// or https:// URL") as refused:
        environment_settings({"TESTWALLET_MODEL_URL": "user:pw@models.example/v1"})
    assert "pw" not in str(refused.value)
