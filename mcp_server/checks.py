"""
System checks (``manage.py check``, and at every server start) for the
``MCP_SERVER`` settings and the installed apps' tools (``mcp_server.registry``).
"""

from collections.abc import Sequence
from importlib import import_module

from django.apps import AppConfig, apps
from django.conf import settings
from django.core import checks
from django.utils.module_loading import module_has_submodule

from mcp_server.conf import DEFAULTS, mcp_setting
from mcp_server.registry import marked_in, problems


@checks.register()
def check_mcp_server_settings(
    app_configs: Sequence[AppConfig] | None, **kwargs: object
) -> list[checks.CheckMessage]:
    """Report MCP_SERVER keys and values that cannot work."""
    errors: list[checks.CheckMessage] = []
    overrides = getattr(settings, "MCP_SERVER", {}) or {}
    for key in sorted(set(overrides) - set(DEFAULTS)):
        errors.append(
            checks.Error(
                f"MCP_SERVER has an unknown key {key!r}.",
                hint="The keys are: " + ", ".join(sorted(DEFAULTS)) + ".",
                id="mcp_server.E001",
            )
        )
    path = mcp_setting("PATH")
    if not isinstance(path, str) or not path.startswith("/") or path.endswith("/"):
        errors.append(
            checks.Error(
                f"MCP_SERVER['PATH'] must start with '/' and not end with one; it is {path!r}.",
                hint="Use a path such as '/api/mcp'.",
                id="mcp_server.E002",
            )
        )
    size = mcp_setting("MAX_BODY_BYTES")
    if not isinstance(size, int) or size <= 0:
        errors.append(
            checks.Error(
                f"MCP_SERVER['MAX_BODY_BYTES'] must be a positive integer; it is {size!r}.",
                id="mcp_server.E003",
            )
        )
    origins = mcp_setting("ALLOWED_ORIGINS")
    if "*" in origins or any(not str(o).startswith(("http://", "https://")) for o in origins):
        errors.append(
            checks.Error(
                "MCP_SERVER['ALLOWED_ORIGINS'] must list full origins such as "
                "'https://shop.example'; '*' is not allowed.",
                hint="A wildcard would let any site call your tools with a visitor's cookies.",
                id="mcp_server.E004",
            )
        )
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.signed_cookies":
        errors.append(
            checks.Warning(
                "Tools cannot save the visitor's session with the signed_cookies engine: "
                "an MCP response sets no cookie, so what a tool writes (a basket) is lost.",
                hint="Use a server-side SESSION_ENGINE (db, cache or cached_db).",
                id="mcp_server.W001",
            )
        )
    return errors


@checks.register()
def check_tools(app_configs: Sequence[AppConfig] | None, **kwargs: object) -> list[checks.CheckMessage]:
    """Report the installed apps' tools that the MCP server would refuse or serve badly.

    Run at ``manage.py check`` and ``runserver``, before any request: each
    mistake an error with its id (``mcp_server.registry.problems``).
    """
    module_name = mcp_setting("TOOLS_MODULE")
    errors: list[checks.CheckMessage] = []
    modules = []
    for app_config in app_configs if app_configs is not None else apps.get_app_configs():
        if app_config.module is None or not module_has_submodule(app_config.module, module_name):
            continue
        dotted = f"{app_config.name}.{module_name}"
        try:
            modules.append(import_module(dotted))
        except Exception as exc:  # whatever the module raises: its tools cannot be served
            errors.append(
                checks.Error(
                    f"{dotted} cannot be imported ({type(exc).__name__}: {exc}), so none of its MCP "
                    "tools can be served.",
                    hint=f"Fix the error its import raises (python -c 'import {dotted}' shows it).",
                    id="mcp_server.E009",
                )
            )
    for problem in problems(marked_in(modules)):
        errors.append(checks.Error(problem.message, hint=problem.hint, obj=problem.where, id=problem.id))
    return errors
