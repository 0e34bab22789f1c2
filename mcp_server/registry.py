"""
The tool registry: how an installed app contributes tools to the site's server.

``@tool`` (in ``yourapp/tools.py``) only marks an ``async`` function, which stays a plain
coroutine. The first time the tools are asked for, ``mcp_server``'s app config collects the
marked functions of every installed app's tools module, as the app registry keeps the models:
nothing lives in this module. ``problems`` finds registration mistakes (reported as system
checks by ``mcp_server.checks``); the server refuses to start with tools that have them
(``tools_in``). Why: docs/explanation/modules.md.
"""

import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import module_has_submodule

if TYPE_CHECKING:
    from mcp_types import ToolAnnotations

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

        # A sync function is marked too: the system check names it (mcp_server.E005) at start-up,
        # where an exception here would surface only when the tools module is first imported.
        annotations = ToolAnnotations(
            read_only_hint=read_only, destructive_hint=destructive, open_world_hint=open_world
        )
        setattr(fn, MARK, Registration(fn=fn, name=name or fn.__name__, title=title, annotations=annotations))
        return fn

    return mark


def _is_async(fn: object) -> bool:
    # Not inline: inspect.iscoroutinefunction narrows its argument, and a tool stays the type it was.
    return inspect.iscoroutinefunction(fn)


@dataclass(frozen=True)
class Problem:
    """A registration mistake, as the system check ``id`` reports it."""

    id: str
    message: str
    hint: str
    where: str  # the tool function's dotted path (the check's object: its messages start with it)


def marked_in(modules: Iterable[ModuleType]) -> list[Registration]:
    """Return the tools marked in ``modules``, in the order they are defined (a function imported twice once)."""
    found: list[Registration] = []
    for module in modules:
        for value in vars(module).values():
            registration = getattr(value, MARK, None)
            if isinstance(registration, Registration) and all(r.fn is not registration.fn for r in found):
                found.append(registration)
    return found


def problems(registered: Iterable[Registration], *, schemas: bool = True) -> list[Problem]:
    """Return these tools' mistakes (``schemas``: also annotations the MCP SDK cannot express)."""
    found: list[Problem] = []
    names: dict[str, Registration] = {}
    for registration in registered:
        fn, where = registration.fn, _where(registration.fn)
        if not _is_async(fn):
            found.append(
                Problem(
                    "mcp_server.E005",
                    "This MCP tool is a plain function; tools must be async functions.",
                    "Write it with 'async def' and use the ORM's async methods (aget, acount, "
                    "async for ...): a sync tool runs in a worker thread that keeps daphne from exiting.",
                    where,
                )
            )
        if not (inspect.getdoc(fn) or "").strip():
            found.append(
                Problem(
                    "mcp_server.E006",
                    "This MCP tool has no docstring; its first line is the description the model reads.",
                    'Add a one-line docstring saying what the tool does, e.g. """Search books by title."""',
                    where,
                )
            )
        first = names.setdefault(registration.name, registration)
        if first is not registration:
            found.append(
                Problem(
                    "mcp_server.E008",
                    f"Another MCP tool is named {registration.name!r} too: {_where(first.fn)}.",
                    "Pass name= to one of them: @tool(name='...').",
                    where,
                )
            )
    if schemas:
        found.extend(_schema_problems(names.values()))
    return found


def _schema_problems(registered: Iterable[Registration]) -> list[Problem]:
    """Return a problem for each tool whose input schema the MCP SDK cannot build, with the SDK's reason."""
    from mcp.server import MCPServer

    probe = MCPServer()  # thrown away: only its add_tool's schema building is wanted
    found: list[Problem] = []
    for registration in registered:
        try:
            probe.add_tool(registration.fn, name=registration.name)
        except Exception as exc:  # pydantic's and the SDK's own errors: whatever stops the server's build
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            found.append(
                Problem(
                    "mcp_server.E007",
                    f"The MCP SDK cannot build this tool's input schema: {reason}",
                    "Annotate each parameter with a type JSON Schema can express (str, int, float, bool, "
                    "list[...], dict[str, ...], Literal[...], a TypedDict or a pydantic model), defined "
                    "where the module can import it at run time.",
                    _where(registration.fn),
                )
            )
    return found


def _where(fn: object) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', fn)}"


def tools_in(modules: Iterable[ModuleType]) -> list[Registration]:
    """Return the tools marked in ``modules``; refuse tools with a mistake the system checks report."""
    registered = marked_in(modules)
    found = problems(registered, schemas=False)  # the SDK's own add_tool refuses a bad annotation
    if found:
        raise ImproperlyConfigured(
            f"{found[0].message} {found[0].hint} ({found[0].id}; "
            "'python manage.py check' lists every such mistake)"
        )
    return registered


def discover(app_configs: Iterable[AppConfig], module_name: str) -> list[Registration]:
    """Import the ``module_name`` module of each app that has one and return the tools marked there."""
    modules = [
        import_module(f"{app_config.name}.{module_name}")
        for app_config in app_configs
        if module_has_submodule(app_config.module, module_name)
    ]
    return tools_in(modules)
