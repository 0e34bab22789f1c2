"""System checks for the MCP_SERVER settings."""

from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import settings
from django.core import checks

from mcp_server.conf import DEFAULTS, mcp_setting


@checks.register()
def check_mcp_server_settings(
    app_configs: Sequence[AppConfig] | None, **kwargs: object
) -> list[checks.CheckMessage]:
    """Report MCP_SERVER keys and values that cannot work."""
    errors: list[checks.CheckMessage] = []
    overrides = getattr(settings, "MCP_SERVER", {}) or {}
    for key in sorted(set(overrides) - set(DEFAULTS)):
        errors.append(
            checks.Error(
                f"MCP_SERVER has an unknown key {key!r}.",
                hint="The keys are: " + ", ".join(sorted(DEFAULTS)) + ".",
                id="mcp_server.E001",
            )
        )
    path = mcp_setting("PATH")
    if not isinstance(path, str) or not path.startswith("/") or path.endswith("/"):
        errors.append(
            checks.Error(
                f"MCP_SERVER['PATH'] must start with '/' and not end with one; it is {path!r}.",
                hint="Use a path such as '/api/mcp'.",
                id="mcp_server.E002",
            )
        )
    size = mcp_setting("MAX_BODY_BYTES")
    if not isinstance(size, int) or size <= 0:
        errors.append(
            checks.Error(
                f"MCP_SERVER['MAX_BODY_BYTES'] must be a positive integer; it is {size!r}.",
                id="mcp_server.E003",
            )
        )
    origins = mcp_setting("ALLOWED_ORIGINS")
    if "*" in origins or any(not str(o).startswith(("http://", "https://")) for o in origins):
        errors.append(
            checks.Error(
                "MCP_SERVER['ALLOWED_ORIGINS'] must list full origins such as "
                "'https://shop.example'; '*' is not allowed.",
                hint="A wildcard would let any site call your tools with a visitor's cookies.",
                id="mcp_server.E004",
            )
        )
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.signed_cookies":
        errors.append(
            checks.Warning(
                "Tools cannot save the visitor's session with the signed_cookies engine: "
                "an MCP response sets no cookie, so what a tool writes (a basket) is lost.",
                hint="Use a server-side SESSION_ENGINE (db, cache or cached_db).",
                id="mcp_server.W001",
            )
        )
    return errors
