"""
The ``MCP_SERVER`` settings namespace: each key's documented default in
``DEFAULTS``, and ``mcp_setting(name)``, which reads a key when used, never at import.
"""

from types import MappingProxyType
from typing import Any

from django.conf import settings

# Read-only: the documented defaults are no state a test or a caller can change.
DEFAULTS = MappingProxyType(
    {
        # The name and instructions the server announces in `initialize`.
        "NAME": "site-tools",
        "INSTRUCTIONS": "",
        # Where the Streamable HTTP endpoint is mounted.
        "PATH": "/api/mcp",
        # Requests with a larger body get 413 before any JSON is parsed.
        "MAX_BODY_BYTES": 256 * 1024,
        # Browser origins allowed besides the site's own (the request's Host).
        # Never "*": a page on another site must not drive the visitor's basket.
        "ALLOWED_ORIGINS": (),
        # The module name looked up in every installed app.
        "TOOLS_MODULE": "tools",
    }
)


def mcp_setting(name: str) -> Any:
    """Return the value of MCP_SERVER[name], or its documented default."""
    # Any: each key has its own type (DEFAULTS), checked by mcp_server.checks at start-up.
    overrides = getattr(settings, "MCP_SERVER", {}) or {}
    return overrides.get(name, DEFAULTS[name])
