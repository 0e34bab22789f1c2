"""The route id (byoa.pairing.route_ids): its shape, its cookie, the endpoint carrying it, the routes that take it."""

from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, RequestFactory

from byoa import checks
from byoa.conf import DEFAULTS
from byoa.models import Pairing, SessionCode
from byoa.pairing import route_ids as routes
from byoa.wire import endpoints
from testwallet.direct.link_checks import check_link

PUBLIC = {"HTTP_HOST": "game.example.org", "secure": True}


@pytest.fixture(autouse=True)
def public_host(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "game.example.org"]


def test_a_new_route_id_is_22_url_safe_characters_and_never_the_same_twice():
    made = {routes.new_route_id() for _ in range(1000)}
    assert len(made) == 1000
    assert all(routes.is_route_id(route_id) and len(route_id) == 22 for route_id in made)


@pytest.mark.parametrize(
    "value",
    [
        "",
        "A" * 21,
        "A" * 23,
        "A" * 21 + ".",
        "A" * 21 + "/",
        "A" * 21 + "=",
        "A" * 21 + "\n",
        "A" * 21 + "é",
        None,
        b"A" * 22,
        22,
    ],
)
def test_anything_but_22_url_safe_characters_is_not_a_route_id(value):
    assert not routes.is_route_id(value)


def request_with_cookie(value=None, *, secure=False):
    cookies = {} if value is None else {"byoa_route": value}
    request = RequestFactory().get("/", secure=secure)
    request.COOKIES.update(cookies)
    return request


def test_the_route_id_is_read_from_its_cookie_and_a_malformed_one_is_ignored():
    route_id = routes.new_route_id()
    assert routes.route_id_from(request_with_cookie(route_id)) == route_id
    assert routes.route_id_from(request_with_cookie()) is None
    assert routes.route_id_from(request_with_cookie(route_id + "x")) is None
    assert routes.route_id_from(request_with_cookie("../../etc")) is None


def test_a_browser_keeps_its_route_id_and_one_with_a_malformed_cookie_gets_a_new_one():
    route_id = routes.new_route_id()
    assert routes.route_id_for(request_with_cookie(route_id)) == route_id
    fresh = routes.route_id_for(request_with_cookie("not-a-route-id"))
    assert routes.is_route_id(fresh) and fresh != "not-a-route-id"


def test_the_cookie_name_is_the_byoa_setting(settings):
    settings.BYOA = {**settings.BYOA, "ROUTE_COOKIE": "where"}
    route_id = routes.new_route_id()
    request = RequestFactory().get("/")
    request.COOKIES["where"] = route_id
    assert routes.route_id_from(request) == route_id
    response = HttpResponse()
    routes.set_route_cookie(response, request, route_id)
    assert response.cookies["where"].value == route_id and "byoa_route" not in response.cookies


@pytest.mark.parametrize("name", ["", "byoa-route", "route id", "sessionid", "csrftoken"])
def test_a_route_cookie_name_nginx_cannot_read_or_one_django_uses_is_check_error_e006(settings, name):
    settings.BYOA = {**settings.BYOA, "ROUTE_COOKIE": name}
    [error] = [message for message in checks.check_settings(None) if message.id == "byoa.E006"]
    assert repr(name) in error.msg and "$cookie_<name>" in error.hint


def test_the_default_route_cookie_name_passes_the_checks_and_is_the_one_nginx_hashes():
    from pathlib import Path

    assert not [message for message in checks.check_settings(None) if message.id == "byoa.E006"]
    template = (Path(__file__).parents[2] / "deploy" / "nginx.conf.template").read_text()
    assert f"$cookie_{DEFAULTS['ROUTE_COOKIE']}" in template
    assert template.count(routes.ROUTE_ID_PATTERN) == 2  # the cookie's map and the path's map


@pytest.mark.parametrize("secure", [True, False])
def test_the_cookie_is_httponly_lax_long_lived_and_secure_over_tls(secure):
    response = HttpResponse()
    route_id = routes.new_route_id()
    routes.set_route_cookie(response, request_with_cookie(secure=secure), route_id)
    cookie = response.cookies["byoa_route"]
    assert cookie.value == route_id
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert cookie["max-age"] == routes.ROUTE_COOKIE_SECONDS >= 365 * 24 * 3600
    assert bool(cookie["secure"]) is secure


def test_no_cookie_and_no_endpoint_is_made_with_a_malformed_route_id():
    with pytest.raises(ValueError, match="22 URL-safe characters"):
        routes.set_route_cookie(HttpResponse(), request_with_cookie(), "a/b")
    with pytest.raises(ValueError, match="22 URL-safe characters"):
        routes.routed_endpoint("wss://game.example.org/byoa/ws", "a/b")


@pytest.mark.parametrize(
    ("endpoint", "expected"),
    [
        ("wss://game.example.org/byoa/ws", "wss://game.example.org/byoa/ws/{id}"),
        ("wss://game.example.org/byoa/ws/", "wss://game.example.org/byoa/ws/{id}"),
        ("wss://ws.example.org:8443/wallet?site=geo", "wss://ws.example.org:8443/wallet/{id}?site=geo"),
        ("ws://127.0.0.1:8000/byoa/ws", "ws://127.0.0.1:8000/byoa/ws/{id}"),
    ],
)
def test_the_endpoint_carries_the_route_id_as_its_last_path_segment(endpoint, expected):
    route_id = routes.new_route_id()
    assert routes.routed_endpoint(endpoint, route_id) == expected.format(id=route_id)


def test_an_endpoint_with_a_route_segment_passes_the_wallets_host_rules_and_its_link_checks():
    from byoa.pairing import invitations, manifests

    endpoint = routes.routed_endpoint("wss://game.example.org/byoa/ws", routes.new_route_id())
    assert endpoints.problem(endpoint) == ""
    link = invitations.build(endpoint, manifests.get_manifest("geo").encoded, "Jf3k2N0q-Yb8wQe1sX5mTt7LrA9c")
    assert check_link(link, dev_local=False).endpoint == endpoint


def code_endpoint(client):
    response = client.post("/byoa/code", **PUBLIC)
    assert response.status_code == 200, response.content
    return unquote(dict(parse_qsl(urlsplit(response.json()["link"]).query))["endpoint"])


@pytest.mark.django_db
def test_post_code_sets_the_route_cookie_and_every_link_of_the_browser_carries_that_id():
    client = Client()
    first = code_endpoint(client)
    route_id = client.cookies["byoa_route"].value
    assert routes.is_route_id(route_id) and first == f"wss://game.example.org/byoa/ws/{route_id}"
    assert code_endpoint(client) == first
    assert client.cookies["byoa_route"].value == route_id
    other = Client()
    assert code_endpoint(other) != first  # another browser, another id


@pytest.mark.django_db
def test_the_route_id_is_not_the_session_key_and_survives_a_login_that_changes_it():
    client = Client()
    code_endpoint(client)
    route_id, session_key = client.cookies["byoa_route"].value, client.session.session_key
    client.force_login(User.objects.create_user("visitor", password="a-long-enough-password"))
    assert client.session.session_key != session_key  # Django's cycle_key at login
    assert code_endpoint(client).endswith(f"/{route_id}")
    assert client.cookies["byoa_route"].value == route_id
    assert route_id not in (session_key, client.session.session_key)


@pytest.mark.django_db
def test_the_route_id_is_stored_nowhere_and_names_no_session_visitor_or_code():
    client = Client()
    code_endpoint(client)
    route_id = client.cookies["byoa_route"].value
    session = client.session
    assert route_id not in session.session_key
    assert all(route_id not in str(value) for value in session.values())
    for row in SessionCode.objects.values():
        assert all(route_id not in str(value) for value in row.values())
    assert not Pairing.objects.exists()


async def connects(path):
    from byoa.routing import websocket_routes

    communicator = WebsocketCommunicator(URLRouter(websocket_routes()), path)
    connected, _ = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
async def test_the_wallet_route_takes_the_plain_path_and_a_route_segment():
    assert await connects("/byoa/ws")
    assert await connects(f"/byoa/ws/{routes.new_route_id()}")


@pytest.mark.parametrize(
    "path", ["/byoa/ws/", "/byoa/ws/short", "/byoa/ws/" + "A" * 23, "/byoa/ws/" + "A" * 22 + "/more"]
)
async def test_the_wallet_route_refuses_a_malformed_route_segment_before_the_handshake(path):
    assert not await connects(path)
