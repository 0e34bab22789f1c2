"""Who may call the MCP endpoint: the Host and Origin rules, unit by unit."""

import pytest

from mcp_server.security import refusal


def scope(host="127.0.0.1:8000", origin=None, scheme="http"):
    headers = [(b"host", host.encode())] if host is not None else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "http", "scheme": scheme, "headers": headers}


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
