"""Session codes, /byoa/code and /byoa/wait, rate limits and expiry on a controlled clock."""

import logging
import re
from datetime import timedelta
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone

from byoa import clock
from byoa.exceptions import RateLimited
from byoa.models import SessionCode
from byoa.pairing import codes, manifests, tokens

pytestmark = pytest.mark.django_db

PUBLIC = {"HTTP_HOST": "game.example.org", "secure": True}


@pytest.fixture(autouse=True)
def public_host(settings):
    """The pages of these tests are served over https on a public DNS name, as in production."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "game.example.org"]


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self):
        self.current = timezone.now()

    def __call__(self):
        return self.current

    def advance(self, seconds):
        self.current += timedelta(seconds=seconds)


@pytest.fixture
def fake_clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(clock, "now", fake)
    return fake


def issue(visitor="v1", address="192.0.2.1", site="geo"):
    return codes.issue(visitor, address, manifests.get_manifest(site))


def test_a_code_has_at_least_128_random_bits_and_is_url_safe():
    code = tokens.new_code()
    assert re.fullmatch(r"[A-Za-z0-9_-]+", code) and len(code) * 6 >= 128
    assert len({tokens.new_code() for _ in range(100)}) == 100


def test_a_code_is_stored_hashed_never_as_itself():
    code, _wait = issue()
    row = SessionCode.objects.get()
    assert code not in {row.code_digest, row.wait_id, row.manifest, row.visitor}
    assert row.code_digest == tokens.digest(code)


def test_a_code_is_bound_to_its_browser_session_and_manifest():
    code, _wait = issue(visitor="alice", site="quiz")
    row = codes.consume(code)
    assert (row.visitor, row.manifest_name, row.manifest) == (
        "alice",
        "quiz",
        manifests.get_manifest("quiz").encoded,
    )


def test_a_code_is_consumed_once():
    code, _wait = issue()
    assert codes.consume(code) is not None
    assert codes.consume(code) is None


def test_an_unknown_code_is_not_consumed():
    issue()
    assert codes.consume(tokens.new_code()) is None
    assert codes.consume("") is None
    assert codes.consume(None) is None


def test_a_code_expires_after_120_seconds(fake_clock):
    early, _ = issue(visitor="a")
    late, _ = issue(visitor="b")
    fake_clock.advance(119)
    assert codes.consume(early) is not None
    fake_clock.advance(1)
    assert codes.consume(late) is None


def test_wait_says_waiting_then_connected(fake_clock):
    code, wait = issue(visitor="alice")
    assert codes.wait_state(wait, "alice") is codes.WaitState.WAITING
    codes.consume(code)
    assert codes.wait_state(wait, "alice") is codes.WaitState.CONNECTED


def test_wait_says_expired_after_120_seconds(fake_clock):
    _code, wait = issue(visitor="alice")
    fake_clock.advance(120)
    assert codes.wait_state(wait, "alice") is codes.WaitState.EXPIRED


def test_wait_answers_only_the_browser_session_that_owns_the_code():
    code, wait = issue(visitor="alice")
    codes.consume(code)
    assert codes.wait_state(wait, "mallory") is codes.WaitState.EXPIRED
    assert codes.wait_state(wait, None) is codes.WaitState.EXPIRED


def test_codes_are_rate_limited_per_browser_session_with_retry_after(settings, fake_clock):
    settings.BYOA = {**settings.BYOA, "CODES_PER_SESSION": 3, "CODES_PER_ADDRESS": 100}
    for index in range(3):
        issue(visitor="alice", address=f"192.0.2.{index}")
        fake_clock.advance(10)
    with pytest.raises(RateLimited) as raised:
        issue(visitor="alice", address="192.0.2.99")
    assert raised.value.retry_after == 30  # issued at 0, 10, 20; now 30: the first leaves at 60
    issue(visitor="bob")  # another session is not limited
    fake_clock.advance(30)
    issue(visitor="alice")


def test_codes_are_rate_limited_per_client_address(settings, fake_clock):
    settings.BYOA = {**settings.BYOA, "CODES_PER_SESSION": 100, "CODES_PER_ADDRESS": 2}
    issue(visitor="a", address="198.51.100.7")
    issue(visitor="b", address="198.51.100.7")
    with pytest.raises(RateLimited) as raised:
        issue(visitor="c", address="198.51.100.7")
    assert raised.value.retry_after == 60
    issue(visitor="c", address="198.51.100.8")


def test_the_client_address_is_stored_as_a_keyed_digest():
    issue(address="203.0.113.9")
    assert "203.0.113.9" not in SessionCode.objects.get().client_digest


def post_code(client, **data):
    return client.post("/byoa/code", data, **PUBLIC)


def test_post_code_returns_a_wait_handle_and_a_link_for_this_session():
    client = Client()
    response = post_code(client)
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    body = response.json()
    query = dict(parse_qsl(urlsplit(body["link"]).query))
    assert body["link"].startswith(
        "bringyourownagent://connect?v=0.1&endpoint=wss%3A%2F%2Fgame.example.org%2F"
    )
    route_id = client.cookies[
        "byoa_route"
    ].value  # the browser's route id (byoa.pairing.route_ids), in its endpoint
    assert unquote(query["endpoint"]) == f"wss://game.example.org/byoa/ws/{route_id}"
    assert query["manifest"] == manifests.get_manifest("geo").encoded
    assert query["session"] != body["session"]  # the code never goes into a logged URL
    row = codes.consume(query["session"])
    assert row.visitor == client.session["byoa_visitor"]
    wait = client.get("/byoa/wait", {"session": body["session"]}, **PUBLIC)
    assert wait.json() == {"state": "connected"}


def test_post_code_takes_the_manifest_name_from_the_request():
    body = post_code(Client(), manifest="quiz").json()
    assert dict(parse_qsl(urlsplit(body["link"]).query))["manifest"] == manifests.get_manifest("quiz").encoded
    assert post_code(Client(), manifest="nope").status_code == 404


def test_post_code_keeps_django_csrf_protection():
    client = Client(enforce_csrf_checks=True)
    assert post_code(client).status_code == 403


def test_post_code_answers_429_with_retry_after(settings):
    settings.BYOA = {**settings.BYOA, "CODES_PER_SESSION": 1}
    client = Client()
    assert post_code(client).status_code == 200
    refused = post_code(client)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_wait_tells_another_browser_session_nothing():
    owner = Client()
    wait_id = post_code(owner).json()["session"]
    assert owner.get("/byoa/wait", {"session": wait_id}).json() == {"state": "waiting"}
    assert Client().get("/byoa/wait", {"session": wait_id}).json() == {"state": "expired"}


def test_wait_says_expired_for_an_unknown_handle():
    assert Client().get("/byoa/wait", {"session": "nothing"}).json() == {"state": "expired"}


def test_post_code_outside_debug_refuses_a_link_to_localhost_with_a_500_naming_the_setting():
    response = Client().post("/byoa/code", HTTP_HOST="localhost:8000")
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"] == "endpoint-refused"
    assert (
        "ws://localhost:8000/byoa/ws" in body["message"] and "the endpoint is not wss://" in body["message"]
    )
    assert "BYOA['ENDPOINT']" in body["message"] and "DEBUG" in body["message"]
    assert not SessionCode.objects.exists()  # no code was issued, none counts against the rate limits


def test_post_code_in_debug_builds_a_ws_link_to_localhost(settings):
    settings.DEBUG = True
    client = Client()
    body = client.post("/byoa/code", HTTP_HOST="localhost:8000").json()
    endpoint = unquote(dict(parse_qsl(urlsplit(body["link"]).query))["endpoint"])
    assert endpoint == f"ws://localhost:8000/byoa/ws/{client.cookies['byoa_route'].value}"


def test_a_refused_endpoint_is_logged_at_error_once_per_process_then_at_debug(caplog):
    apps.get_app_config("byoa")._endpoint_refusal_logged = False  # as in a process that never refused one
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        assert Client().post("/byoa/code", HTTP_HOST="localhost:8000").status_code == 500
    refusals = [(r.name, r.levelno) for r in caplog.records if r.name.startswith(("byoa", "django.request"))]
    assert refusals == [
        ("byoa.views", logging.ERROR),
        ("byoa.views", logging.DEBUG),
        ("byoa.views", logging.DEBUG),
    ]
