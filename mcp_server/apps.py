from django.apps import AppConfig, apps

from mcp_server.registry import Registration


class MCPServerConfig(AppConfig):
    name = "mcp_server"
    verbose_name = "MCP tool server"
    # The tools of the installed apps, collected in ready(); the one owner of that list.
    tools: list[Registration]

    def ready(self) -> None:
        from mcp_server import checks  # noqa: F401  (registers the system checks)
        from mcp_server.conf import mcp_setting
        from mcp_server.registry import discover

        self.tools = discover(apps.get_app_configs(), mcp_setting("TOOLS_MODULE"))
