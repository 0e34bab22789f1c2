"""
The site's MCP tool server.

Installed apps register tools in their own ``tools.py`` with the ``@tool``
decorator; ``mcp_server`` finds those modules at start-up (as the admin finds
``admin.py``), builds one ``mcp.server.MCPServer`` from them and serves it with
Streamable HTTP at ``MCP_SERVER["PATH"]`` (``/api/mcp``) inside the project's
ASGI application. See ``mcp_server/README.md``.
"""

from mcp.server.mcpserver.exceptions import ToolError

from mcp_server.registry import tool

__all__ = ["ToolError", "tool"]
