from functools import cached_property
from typing import cast

from django.apps import AppConfig, apps

from mcp_server.registry import Registration


class MCPServerConfig(AppConfig):
    name = "mcp_server"
    verbose_name = "MCP tool server"

    def ready(self) -> None:
        from mcp_server import checks  # noqa: F401  (registers the system checks)

    @cached_property
    def tools(self) -> list[Registration]:
        """The tools of the installed apps, collected the first time they are asked for.

        The one owner of that list. Not collected in ready(): the tools modules import the MCP SDK,
        slow to import, which every management command and ``django.setup()`` would pay. The
        ASGI application asks for them when it builds the MCP server: at start-up under a server
        with a lifespan (uvicorn, hypercorn), so a broken tools module stops it from starting, and
        at the first MCP request under daphne, which has none (mcp_server/asgi.py).
        """
        from mcp_server.conf import mcp_setting
        from mcp_server.registry import discover

        return discover(apps.get_app_configs(), mcp_setting("TOOLS_MODULE"))


def registrations() -> list[Registration]:
    """Return the tools of the installed apps, as mcp_server's app config collected them."""
    return list(cast(MCPServerConfig, apps.get_app_config("mcp_server")).tools)
