"""Who may call the MCP endpoint: the Host and Origin rules, unit by unit."""

import pytest

from mcp_server.security import refusal


def scope(host="127.0.0.1:8000", origin=None, scheme="http"):
    headers = [(b"host", host.encode())] if host is not None else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {
        "type": "http",
        "method": "POST",
        "path": "/api/mcp",
        "query_string": b"",
        "scheme": scheme,
        "headers": headers,
    }


def test_allowed_host_without_origin_is_accepted():
    assert refusal(scope()) is None


def test_own_origin_is_accepted():
    assert refusal(scope(origin="http://127.0.0.1:8000")) is None


@pytest.mark.parametrize(
    "origin",
    ["https://127.0.0.1:8000", "http://127.0.0.1:9999", "http://evil.example", "null"],
)
def test_any_other_origin_gets_403(origin):
    assert refusal(scope(origin=origin))[0] == 403


def test_listed_extra_origin_is_accepted(settings):
    settings.MCP_SERVER = {"ALLOWED_ORIGINS": ["https://app.example"]}
    assert refusal(scope(origin="https://app.example")) is None


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "", None])
def test_host_outside_allowed_hosts_is_refused(host):
    assert refusal(scope(host=host))[0] == 421


def test_behind_a_tls_proxy_the_sites_https_origin_is_its_own(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    request = scope(host="shop.example", origin="https://shop.example")
    settings.ALLOWED_HOSTS = ["shop.example"]
    request["headers"].append((b"x-forwarded-proto", b"https"))
    assert refusal(request) is None


def test_the_proxy_header_is_ignored_unless_django_trusts_it(settings):
    settings.SECURE_PROXY_SSL_HEADER = None
    settings.ALLOWED_HOSTS = ["shop.example"]
    request = scope(host="shop.example", origin="https://shop.example")
    request["headers"].append((b"x-forwarded-proto", b"https"))
    assert refusal(request)[0] == 403


def test_csrf_trusted_origins_may_call(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://admin.example"]
    assert refusal(scope(origin="https://admin.example")) is None


@pytest.mark.parametrize("host", ["localhost:8000", "shop.localhost:8000", "127.0.0.1", "[::1]:8000"])
def test_with_debug_on_and_no_allowed_hosts_localhost_names_are_served_as_by_django(settings, host):
    settings.DEBUG, settings.ALLOWED_HOSTS = True, []
    assert refusal(scope(host=host)) is None


@pytest.mark.parametrize(
    "debug, host", [(True, "evil.example"), (True, "localhost.evil.example"), (False, "localhost:8000")]
)
def test_with_no_allowed_hosts_only_debugs_localhost_names_are_served(settings, debug, host):
    settings.DEBUG, settings.ALLOWED_HOSTS = debug, []
    assert refusal(scope(host=host))[0] == 421


@pytest.mark.parametrize(
    ("origin", "refused"),
    [
        ("https://admin.example.com", False),
        ("https://example.com", False),
        ("http://admin.example.com", True),  # the scheme is part of the listed origin
        ("https://admin.example.com.evil", True),
        ("https://evilexample.com", True),
    ],
)
def test_a_wildcard_trusted_origin_admits_its_subdomains_as_djangos_csrf_check_does(
    settings, origin, refused
):
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.com"]
    assert (refusal(scope(origin=origin)) is not None) == refused
