"""
VISITOR_AI_SPEEDUPS: each speed-up is off unless named, is checked when Django
starts (unknown names, wrong options, a Redis URL it cannot use), and on a
library version it was not verified on falls back to the plain path with the
warning speedups.W001.
"""

from importlib import metadata

import pytest
from django.core import checks

from byoa.hub import Hub
from byoa.transport import ChannelLayerTransport
from visitor_ai import speedups
from visitor_ai.speedups.checks import check_speedups
from visitor_ai.speedups.handler import chosen_handler


def ids(messages):
    return [message.id for message in messages]


@pytest.fixture
def django_62(monkeypatch):
    """Make the installed Django read as 6.2, a release no speed-up was verified on."""
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "6.2.0" if name.lower() == "django" else real(name))


def test_nothing_is_on_by_default(settings):
    del settings.VISITOR_AI_SPEEDUPS
    assert speedups.chosen() == {}
    assert all(speedups.options(name) is None for name in speedups.SPEEDUPS)
    assert chosen_handler() is None
    assert check_speedups() == []


def test_a_chosen_speedup_gets_its_defaults_under_what_the_site_gave(settings):
    settings.VISITOR_AI_SPEEDUPS = {"pairing_cache": {}, "request_threads": {"KEPT": 2}}
    assert speedups.options("pairing_cache") == {"SECONDS": 10.0}
    assert speedups.options("request_threads") == {"KEPT": 2}
    assert speedups.options("redis_transport") is None


def test_every_speedup_is_named_in_the_modules_docstring():
    for name in speedups.SPEEDUPS:
        assert f'"{name}"' in (speedups.__doc__ or "")


@pytest.mark.parametrize(
    "name, serves_instead",
    [("address_cache", 'BYOA["ADDRESS_SECONDS"]'), ("gc_freeze", "visitor_ai.collector")],
)
def test_a_speedup_that_became_the_plain_path_is_a_warning_naming_what_serves_instead(
    settings, name, serves_instead
):
    settings.VISITOR_AI_SPEEDUPS = {name: {}}
    [warning] = check_speedups()
    assert warning.id == "speedups.W002" and f"'{name}'" in warning.msg
    assert serves_instead in warning.msg


def test_an_unknown_speedup_is_a_system_check_error_that_lists_them(settings):
    settings.VISITOR_AI_SPEEDUPS = {"turbo": {}}
    [error] = check_speedups()
    assert error.id == "speedups.E001" and "'turbo'" in error.msg
    assert all(name in error.hint for name in speedups.SPEEDUPS)
    settings.VISITOR_AI_SPEEDUPS = ["request_threads"]
    assert ids(check_speedups()) == ["speedups.E001"]


@pytest.mark.parametrize(
    "given",
    [
        {"pairing_cache": True},
        {"pairing_cache": {"SECONDS": -1}},
        {"pairing_cache": {"MINUTES": 1}},
        {"request_threads": {"KEPT": "many"}},
        {"redis_transport": {}},
        {"redis_transport": {"URL": "http://user:secret@127.0.0.1:6379/0"}},
    ],
)
def test_wrong_options_are_a_system_check_error_that_never_shows_a_password(settings, given):
    settings.VISITOR_AI_SPEEDUPS = given
    [error] = check_speedups()
    assert error.id == "speedups.E002"
    assert "secret" not in error.msg + error.hint


@pytest.mark.django_db  # other apps' checks read the database
def test_the_checks_run_when_django_starts(settings):
    settings.VISITOR_AI_SPEEDUPS = {"turbo": {}}
    assert "speedups.E001" in ids(checks.run_checks())


def test_a_redis_url_with_its_password_is_accepted(settings):
    settings.VISITOR_AI_SPEEDUPS = {"redis_transport": {"URL": "redis://user:secret@127.0.0.1:6379/0"}}
    assert check_speedups() == []


def test_on_an_unverified_django_the_handlers_speedups_fall_back_to_djangos_handler(settings, django_62):
    settings.VISITOR_AI_SPEEDUPS = {"request_threads": {}, "loop_middleware": {}, "pairing_cache": {}}
    assert speedups.unverified("request_threads") == ["Django 6.2.0"]
    assert chosen_handler() is None  # get_asgi_application() then serves with Django's own
    assert speedups.options("pairing_cache") == {"SECONDS": 10.0}  # relies on no library's internals
    warnings = check_speedups()
    assert ids(warnings) == ["speedups.W001", "speedups.W001"]
    assert "'request_threads' is off" in warnings[0].msg and "Django 6.2.0" in warnings[0].msg
    assert "5.2 / 6.0 / 6.1" in warnings[0].msg


def test_on_an_unverified_redis_py_the_hub_keeps_the_channel_layer(settings, monkeypatch):
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "99.0" if name.lower() == "redis" else real(name))
    settings.VISITOR_AI_SPEEDUPS = {"redis_transport": {"URL": "redis://127.0.0.1:6379/0"}}
    assert isinstance(Hub().transport, ChannelLayerTransport)
    assert ids(check_speedups()) == ["speedups.W001"]
