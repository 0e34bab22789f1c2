"""Session codes, links, /byoa/code and /byoa/wait, rate limits and expiry on a controlled clock."""

import re
from datetime import timedelta
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from django.test import Client, RequestFactory
from django.utils import timezone

from byoa import clock, codes, invitations, manifests, tokens
from byoa.exceptions import EndpointRefused, RateLimited
from byoa.models import SessionCode

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
    return codes.issue(visitor, address, manifests.get(site))


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
    assert (row.visitor, row.manifest_name, row.manifest) == ("alice", "quiz", manifests.get("quiz").encoded)


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


def test_the_link_is_exactly_as_the_spec_says():
    link = invitations.build("wss://game.example.org/byoa/ws", "eyJhIjoxfQ", "Jf3k2N0q-Yb8wQe1sX5mTt7LrA9c")
    assert link == (
        "bringyourownagent://connect?v=0.1"
        "&endpoint=wss%3A%2F%2Fgame.example.org%2Fbyoa%2Fws"
        "&manifest=eyJhIjoxfQ"
        "&session=Jf3k2N0q-Yb8wQe1sX5mTt7LrA9c"
    )


@pytest.mark.parametrize(
    "host, secure, expected",
    [
        ("game.example.org", True, "wss://game.example.org/byoa/ws"),
        ("game.example.org", False, "wss://game.example.org/byoa/ws"),  # TLS ends at the proxy
        ("game.example.org:8443", True, "wss://game.example.org:8443/byoa/ws"),
    ],
)
def test_the_endpoint_is_wss_on_the_requests_public_host(settings, host, secure, expected):
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST=host, secure=secure)
    assert invitations.endpoint_for(request) == expected


@pytest.mark.parametrize(
    "host, secure, expected",
    [
        ("localhost:8000", False, "ws://localhost:8000/byoa/ws"),
        ("127.0.0.1:8000", False, "ws://127.0.0.1:8000/byoa/ws"),
        ("[::1]:8000", False, "ws://[::1]:8000/byoa/ws"),
        ("localhost:8000", True, "wss://localhost:8000/byoa/ws"),
    ],
)
def test_in_debug_a_page_on_localhost_gets_a_loopback_endpoint(settings, host, secure, expected):
    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = True
    request = RequestFactory().get("/", HTTP_HOST=host, secure=secure)
    assert invitations.endpoint_for(request) == expected


@pytest.mark.parametrize(
    "host, secure",
    [
        ("localhost:8000", False),
        ("127.0.0.1:8000", False),
        ("[::1]:8000", False),
        ("localhost", True),
        ("10.0.0.5", True),
        ("2130706433", True),
        ("0x7f.1", True),
        ("intranet", True),
        ("nas.local", True),
        ("db.internal", True),
        ("router.lan", True),
        ("nas.home.arpa", True),
    ],
)
def test_outside_debug_an_endpoint_a_wallet_would_refuse_is_never_built(settings, host, secure):
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST=host, secure=secure)
    with pytest.raises(EndpointRefused) as refused:
        invitations.endpoint_for(request)
    assert "BYOA['ENDPOINT']" in str(refused.value) and "DEBUG" in str(refused.value)


def test_a_configured_endpoint_wins(settings):
    settings.BYOA = {**settings.BYOA, "ENDPOINT": "wss://ws.example.org/wallet"}
    assert invitations.endpoint_for(RequestFactory().get("/")) == "wss://ws.example.org/wallet"


@pytest.mark.parametrize("endpoint", ["wss://192.0.2.7/byoa/ws", "ws://ws.example.org/byoa/ws", "ws://localhost:8000/byoa/ws"])
def test_a_configured_endpoint_a_wallet_would_refuse_is_never_put_in_a_link(settings, endpoint):
    settings.BYOA = {**settings.BYOA, "ENDPOINT": endpoint}
    with pytest.raises(EndpointRefused):
        invitations.endpoint_for(RequestFactory().get("/"))


@pytest.mark.parametrize(
    "url, origin",
    [
        ("wss://game.example.org/byoa/ws", "https://game.example.org"),
        ("wss://Game.Example.org:443/byoa/ws", "https://game.example.org"),
        ("wss://game.example.org:8443/byoa/ws", "https://game.example.org:8443"),
        ("ws://127.0.0.1:8000/byoa/ws", "http://127.0.0.1:8000"),
        ("ws://[::1]:80/byoa/ws", "http://[::1]"),
        ("https://game.example.org", "https://game.example.org"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("null", ""),
        ("ftp://game.example.org", ""),
        ("https://game.example.org:99999", ""),
    ],
)
def test_origin_of_gives_the_http_twin_of_an_endpoint_without_a_default_port(url, origin):
    assert invitations.origin_of(url) == origin


@pytest.mark.parametrize(
    "host, origin",
    [
        ("localhost:8000", "http://localhost:8000"),
        ("game.localhost:8000", "https://game.localhost:8000"),  # a subdomain of localhost is no loopback name
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("[::1]:8000", "http://[::1]:8000"),
        ("evil.example", ""),
    ],
)
def test_with_debug_on_and_no_allowed_hosts_own_origin_serves_djangos_localhost_names(settings, host, origin):
    settings.DEBUG, settings.ALLOWED_HOSTS = True, []
    assert invitations.own_origin(host, secure=False) == origin


def test_with_debug_off_and_no_allowed_hosts_no_host_has_an_own_origin(settings):
    settings.DEBUG, settings.ALLOWED_HOSTS = False, []
    assert invitations.own_origin("localhost:8000", secure=False) == ""


def post_code(client, **data):
    return client.post("/byoa/code", data, **PUBLIC)


def test_post_code_returns_a_wait_handle_and_a_link_for_this_session():
    client = Client()
    response = post_code(client)
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    body = response.json()
    query = dict(parse_qsl(urlsplit(body["link"]).query))
    assert body["link"].startswith("bringyourownagent://connect?v=0.1&endpoint=wss%3A%2F%2Fgame.example.org%2F")
    assert unquote(query["endpoint"]) == "wss://game.example.org/byoa/ws"
    assert query["manifest"] == manifests.get("geo").encoded
    assert query["session"] != body["session"]  # the code never goes into a logged URL
    row = codes.consume(query["session"])
    assert row.visitor == client.session["byoa_visitor"]
    wait = client.get("/byoa/wait", {"session": body["session"]}, **PUBLIC)
    assert wait.json() == {"state": "connected"}


def test_post_code_takes_the_manifest_name_from_the_request():
    body = post_code(Client(), manifest="quiz").json()
    assert dict(parse_qsl(urlsplit(body["link"]).query))["manifest"] == manifests.get("quiz").encoded
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
    assert "ws://localhost:8000/byoa/ws" in body["message"] and "the endpoint is not wss://" in body["message"]
    assert "BYOA['ENDPOINT']" in body["message"] and "DEBUG" in body["message"]
    assert not SessionCode.objects.exists()  # no code was issued, none counts against the rate limits


def test_post_code_in_debug_builds_a_ws_link_to_localhost(settings):
    settings.DEBUG = True
    body = Client().post("/byoa/code", HTTP_HOST="localhost:8000").json()
    assert unquote(dict(parse_qsl(urlsplit(body["link"]).query))["endpoint"]) == "ws://localhost:8000/byoa/ws"
