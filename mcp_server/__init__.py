"""
The site's MCP tool server.

Installed apps register tools in their own ``tools.py`` with the ``@tool``
decorator; ``mcp_server`` finds those modules when the ASGI application starts
(as the admin finds ``admin.py``), builds one ``mcp.server.MCPServer`` from them and serves it with
Streamable HTTP at ``MCP_SERVER["PATH"]`` (``/api/mcp``) inside the project's
ASGI application. See ``mcp_server/README.md``.
"""

from typing import TYPE_CHECKING

from mcp_server.registry import tool

if TYPE_CHECKING:
    from mcp.server.mcpserver.exceptions import ToolError

__all__ = ["ToolError", "tool"]


def __getattr__(name: str) -> object:
    # ToolError is the MCP SDK's own class, imported when a tools module asks for it rather than
    # when Django loads this app: importing the SDK costs about a second of CPU, which every
    # management command would pay (apps.py says when the tools modules are imported).
    if name == "ToolError":
        from mcp.server.mcpserver.exceptions import ToolError

        return ToolError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
