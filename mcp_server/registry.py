"""
The tool registry: how an installed app contributes tools to the site's server.

In ``yourapp/tools.py``::

    from mcp_server import tool

    @tool(read_only=True)
    async def list_moods() -> str:
        \"\"\"List the moods books can be searched by.\"\"\"
        ...

The decorator only marks the function (it stays a plain coroutine: call it
directly in unit tests). The first time the tools are asked for (when the ASGI
application builds the MCP server), ``mcp_server``'s app config collects the
marked functions of every installed app's tools module and keeps
them, as the app registry keeps the models: nothing lives in this module, so a
test or a second settings module starts from what its own apps declare. Tools
must be ``async``: a sync tool runs in a worker thread that keeps daphne from
exiting on SIGTERM.
"""

import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django.apps import AppConfig
from django.utils.module_loading import module_has_submodule

if TYPE_CHECKING:
    from mcp_types import ToolAnnotations

    from mcp_server.apps import MCPServerConfig

ToolFunction = TypeVar("ToolFunction", bound=Callable[..., Awaitable[Any]])

# The attribute @tool sets on the function it marks.
MARK = "__mcp_tool__"


@dataclass(frozen=True)
class Registration:
    """One tool as its app declared it."""

    fn: Callable[..., Awaitable[Any]]
    name: str
    title: str | None = None
    annotations: "ToolAnnotations | None" = None


def tool(
    *,
    name: str | None = None,
    title: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    open_world: bool = False,
) -> Callable[[ToolFunction], ToolFunction]:
    """Mark the decorated async function as an MCP tool of this site.

    ``read_only``, ``destructive`` and ``open_world`` become the MCP annotations
    ``readOnlyHint``, ``destructiveHint`` and ``openWorldHint``. Say
    ``open_world=True`` when the tool's results carry text the site does not
    vouch for (the web, other visitors' reviews): a browser agent then reads them
    as untrusted (WebMCP's ``untrustedContentHint``, frontend/webmcp/). Each hint
    is sent explicitly, since MCP's defaults assume the worst (an open world).
    """

    def mark(fn: ToolFunction) -> ToolFunction:
        # Here, not at the top: Django imports this module when it loads the app, and the MCP
        # SDK only when the tools modules are collected (apps.py).
        from mcp_types import ToolAnnotations

        if not _is_async(fn):
            raise TypeError(
                f"MCP tool {fn.__qualname__} must be an async function: a sync tool "
                "runs in a worker thread that keeps daphne from exiting."
            )
        annotations = ToolAnnotations(
            read_only_hint=read_only, destructive_hint=destructive, open_world_hint=open_world
        )
        setattr(fn, MARK, Registration(fn=fn, name=name or fn.__name__, title=title, annotations=annotations))
        return fn

    return mark


def _is_async(fn: object) -> bool:
    # Not inline: inspect.iscoroutinefunction narrows its argument, and a tool stays the type it was.
    return inspect.iscoroutinefunction(fn)


def tools_in(modules: Iterable[ModuleType]) -> list[Registration]:
    """Return the tools marked in ``modules``, in the order they are defined; refuse two with one name."""
    found: dict[str, Registration] = {}
    for module in modules:
        for value in vars(module).values():
            registration = getattr(value, MARK, None)
            if not isinstance(registration, Registration):
                continue
            existing = found.get(registration.name)
            if existing is not None and existing.fn is not registration.fn:
                raise ValueError(
                    f"Two MCP tools are named {registration.name!r} ({existing.fn.__module__} and "
                    f"{registration.fn.__module__}); pass name= to one of them."
                )
            found[registration.name] = registration
    return list(found.values())


def discover(app_configs: Iterable[AppConfig], module_name: str) -> list[Registration]:
    """Import the ``module_name`` module of each app that has one and return the tools marked there."""
    modules = [
        import_module(f"{app_config.name}.{module_name}")
        for app_config in app_configs
        if module_has_submodule(app_config.module, module_name)
    ]
    return tools_in(modules)


def registrations() -> list[Registration]:
    """Return the tools of the installed apps, as mcp_server's app config collected them."""
    from django.apps import apps

    config = cast("MCPServerConfig", apps.get_app_config("mcp_server"))
    return list(config.tools)
