"""
Build the site's ``MCPServer`` from the registered tools.

The SDK validates arguments with pydantic, whose messages name pydantic
internals and which ignores unknown keys. A model acts better on a message that
says which argument is wrong and what is allowed, so each call is first checked
with ``jsonschema`` against the exact schema ``tools/list`` advertised, and the
advertised schema forbids keys it does not name. Each tool's validator is
built once, on first use: the schemas never change while the server runs.
An error quotes at most a short prefix of what the client sent (``quoted``).
"""

from collections.abc import Mapping
from typing import Any

import jsonschema
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import close_old_connections
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, Tool

from mcp_server.apps import registrations
from mcp_server.conf import mcp_setting

#: Per tool name: the validator of its arguments.
Validators = dict[str, jsonschema.Draft202012Validator]
#: The most characters of a client's value an error message quotes.
QUOTE_CHARS = 40


class SiteMCPServer(MCPServer[Any]):
    """An MCPServer whose tool arguments are checked against the advertised JSON Schema."""

    _validator_cache: Validators

    async def list_tools(self) -> list[Tool]:
        """List the tools, each schema closed to arguments it does not name."""
        tools = await super().list_tools()
        for listed in tools:
            listed.input_schema.setdefault("additionalProperties", False)
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool once its arguments match its schema; else raise ToolError saying what is wrong."""
        validators = await self._validators()
        found = validators.get(name)
        if found is None:
            known = ", ".join(sorted(validators))
            raise ToolError(f"There is no tool named {quoted(name)}. The tools are: {known}.")
        problems = sorted(found.iter_errors(arguments), key=lambda error: list(error.path))
        if problems:
            raise ToolError(f"Invalid arguments for {name}: " + "; ".join(map(_describe, problems)))
        # A tool call is this endpoint's request: its queries get a thread and a
        # database connection of their own, returned when it ends, as Django's
        # handler does for a view. Without that they would share one thread whose
        # connection is never closed, and stay dead after a database restart.
        async with ThreadSensitiveContext():
            try:
                return await super().call_tool(name, arguments, context)
            finally:
                await sync_to_async(close_old_connections)()

    async def _validators(self) -> Validators:
        # Built on first use: the schemas never change while the server runs.
        if not hasattr(self, "_validator_cache"):
            self._validator_cache = {
                listed.name: jsonschema.Draft202012Validator(listed.input_schema)
                for listed in await self.list_tools()
            }
        return self._validator_cache


def quoted(value: object) -> str:
    """Return ``repr(value)``, cut to a short prefix when longer: a client's value, as an error quotes it."""
    text = repr(value)
    return text if len(text) <= QUOTE_CHARS else f"{text[:QUOTE_CHARS]}... ({len(text)} characters)"


def _describe(error: jsonschema.ValidationError) -> str:
    """Return one schema violation as a sentence a model can act on, quoting the value briefly."""
    where = quoted("/".join(str(part) for part in error.absolute_path))
    if error.validator == "additionalProperties":
        schema = error.schema if isinstance(error.schema, Mapping) else {}  # a mapping for this validator
        named = schema.get("properties", {})
        given = error.instance if isinstance(error.instance, Mapping) else {}
        unexpected = ", ".join(quoted(key) for key in sorted(map(str, given)) if key not in named)
        return f"unexpected argument(s) {unexpected}; the allowed arguments are: {', '.join(sorted(named))}"
    # jsonschema's messages put the value's repr first ("'...' is too long"): only its prefix is kept.
    message = error.message.replace(repr(error.instance), quoted(error.instance), 1)
    subject = f"argument {where}" if where != "''" else "the arguments"
    return f"{subject}: {message}"


def build_server() -> SiteMCPServer:
    """Return a new MCPServer with every registered tool."""
    server = SiteMCPServer(
        name=mcp_setting("NAME"),
        instructions=mcp_setting("INSTRUCTIONS") or None,
    )
    for registration in registrations():
        server.add_tool(
            registration.fn,
            name=registration.name,
            title=registration.title,
            annotations=registration.annotations,
        )
    return server
