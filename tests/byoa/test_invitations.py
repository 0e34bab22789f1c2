"""The invitation a page hands a wallet: the connect link, the endpoint it names, and that endpoint's origin."""

import pytest
from django.test import RequestFactory

from byoa.exceptions import EndpointRefused
from byoa.pairing import invitations


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


@pytest.mark.parametrize(
    "endpoint", ["wss://192.0.2.7/byoa/ws", "ws://ws.example.org/byoa/ws", "ws://localhost:8000/byoa/ws"]
)
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
        (
            "game.localhost:8000",
            "https://game.localhost:8000",
        ),  # a subdomain of localhost is no loopback name
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
