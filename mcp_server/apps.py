from django.apps import AppConfig


class MCPServerConfig(AppConfig):
    name = "mcp_server"
    verbose_name = "MCP tool server"

    def ready(self):
        from mcp_server import checks  # noqa: F401  (registers the system checks)
        from mcp_server.registry import autodiscover

        autodiscover()
