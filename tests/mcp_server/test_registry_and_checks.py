"""Tool registration rules and the MCP_SERVER system checks."""

import pytest
from django.core import checks

from mcp_server import tool
from mcp_server.checks import check_mcp_server_settings
from mcp_server.registry import _registry, registrations


def test_a_sync_tool_is_refused_with_the_reason():
    with pytest.raises(TypeError, match="must be an async function"):

        @tool()
        def slow_tool():
            """Nope."""


def test_two_tools_with_one_name_are_refused():
    async def search_books():
        """A second search_books."""

    with pytest.raises(ValueError, match="Two MCP tools are named 'search_books'"):
        tool()(search_books)


def test_installed_apps_tools_are_discovered():
    assert {r.name for r in registrations()} >= {"search_books", "add_to_basket"}
    assert "slow_tool" not in _registry


def error_ids(settings_value, settings):
    settings.MCP_SERVER = settings_value
    return [message.id for message in check_mcp_server_settings(None) if message.level >= checks.ERROR]


def test_default_settings_pass_the_checks(settings):
    assert error_ids({}, settings) == []


@pytest.mark.parametrize(
    "value, expected",
    [
        ({"PAHT": "/api/mcp"}, "mcp_server.E001"),
        ({"PATH": "api/mcp"}, "mcp_server.E002"),
        ({"PATH": "/api/mcp/"}, "mcp_server.E002"),
        ({"MAX_BODY_BYTES": 0}, "mcp_server.E003"),
        ({"ALLOWED_ORIGINS": ["*"]}, "mcp_server.E004"),
        ({"ALLOWED_ORIGINS": ["shop.example"]}, "mcp_server.E004"),
    ],
)
def test_bad_settings_are_reported_by_id(settings, value, expected):
    assert error_ids(value, settings) == [expected]


def test_cookie_sessions_are_warned_about_because_tools_cannot_save_them(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    assert [m.id for m in check_mcp_server_settings(None)] == ["mcp_server.W001"]
