"""
The tool registry: how an installed app contributes tools to the site's server.

In ``yourapp/tools.py``::

    from mcp_server import tool

    @tool(read_only=True)
    async def list_moods() -> str:
        \"\"\"List the moods books can be searched by.\"\"\"
        ...

The function stays a plain coroutine (call it directly in unit tests); the
decorator only records it. Tools must be ``async``: a sync tool runs in a
worker thread that keeps daphne from exiting on SIGTERM.
"""

import inspect
from dataclasses import dataclass, field

from django.utils.module_loading import autodiscover_modules
from mcp_types import ToolAnnotations

from mcp_server.conf import mcp_setting


@dataclass(frozen=True)
class Registration:
    """One tool as its app registered it."""

    fn: object
    name: str
    title: str | None = None
    annotations: ToolAnnotations | None = field(default=None)


_registry: dict[str, Registration] = {}


def tool(*, name=None, title=None, read_only=False, destructive=False):
    """Register the decorated async function as an MCP tool of this site."""

    def register(fn):
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(
                f"MCP tool {fn.__qualname__} must be an async function: a sync tool "
                "runs in a worker thread that keeps daphne from exiting."
            )
        tool_name = name or fn.__name__
        existing = _registry.get(tool_name)
        if existing is not None and existing.fn is not fn:
            raise ValueError(
                f"Two MCP tools are named {tool_name!r} ({existing.fn.__module__} and "
                f"{fn.__module__}); pass name= to one of them."
            )
        _registry[tool_name] = Registration(
            fn=fn,
            name=tool_name,
            title=title,
            annotations=ToolAnnotations(readOnlyHint=read_only, destructiveHint=destructive),
        )
        return fn

    return register


def autodiscover():
    """Import the tools module of every installed app, so its tools register."""
    autodiscover_modules(mcp_setting("TOOLS_MODULE"))


def registrations():
    """Return the registered tools, in registration order."""
    return list(_registry.values())
