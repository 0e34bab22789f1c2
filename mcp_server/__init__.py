"""
The site's MCP tool server.

Installed apps register tools in their own ``tools.py`` with the ``@tool``
decorator; ``mcp_server`` finds those modules when the ASGI application starts
(as the admin finds ``admin.py``), builds one ``mcp.server.MCPServer`` from them and serves it with
Streamable HTTP at ``MCP_SERVER["PATH"]`` (``/api/mcp``) inside the project's
ASGI application. A tool that acts for the calling visitor takes the SDK's
``Context`` and reads their session with ``visitor_session``; a test calls the
tools in-process through ``build_server()``. See ``mcp_server/README.md``.
"""

from typing import TYPE_CHECKING

from mcp_server.registry import tool

if TYPE_CHECKING:
    from mcp.server.mcpserver.exceptions import ToolError

    from mcp_server.server import build_server
    from mcp_server.visitor_sessions import from_browser_page, visitor_session

__all__ = ["ToolError", "build_server", "from_browser_page", "tool", "visitor_session"]

# Imported when asked for rather than when Django loads this app: the MCP SDK is slow to import
# (docs: performance), which every management command would pay (apps.py says when the
# tools modules are imported), and the sessions module needs the settings.
_LAZY = {
    "ToolError": "mcp.server.mcpserver.exceptions",
    "build_server": "mcp_server.server",
    "from_browser_page": "mcp_server.visitor_sessions",
    "visitor_session": "mcp_server.visitor_sessions",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
