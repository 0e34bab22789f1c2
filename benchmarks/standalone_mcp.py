"""
The baseline of benchmarks/mcp_calls.py: a plain ``MCPServer`` Streamable HTTP
app with none of the project around it (no Django routing, no Host/Origin
checks, no argument pre-validation), serving a trivial tool (``ping``) and,
for reference, the bookshop's own tools.

    uvicorn benchmarks.standalone_mcp:app
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
django.setup()

from mcp.server import MCPServer  # noqa: E402
from mcp.server.transport_security import TransportSecuritySettings  # noqa: E402

from sites.bookshop.tools import get_book, list_moods, search_books  # noqa: E402

server = MCPServer("standalone-baseline")
for tool in (search_books, get_book, list_moods):
    server.add_tool(tool)


@server.tool()
async def ping(text: str = "") -> str:
    """Answer pong: a tool whose own work is nothing, so that its calls measure the transport alone."""
    return "pong " + text


app = server.streamable_http_app(
    streamable_http_path="/api/mcp",
    json_response=True,
    stateless_http=True,
    transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
)
