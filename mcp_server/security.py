"""
Who may call the MCP endpoint: checks made before the SDK sees a request.

``Host`` must be one Django serves (``HttpRequest.get_host()``); a browser's ``Origin`` must be
this site's own (its scheme as Django reads it, ``SECURE_PROXY_SSL_HEADER`` included) or listed in
``MCP_SERVER["ALLOWED_ORIGINS"]`` or ``CSRF_TRUSTED_ORIGINS`` (wildcards as Django's CSRF check
reads them); a client with no Origin is not a browser and is let through. No CORS headers are
sent. The JSON content type and the body size cap are the SDK's own checks (``mcp_server.asgi``).
Why: docs/explanation/modules.md.
"""

import io
import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

from mcp_server.conf import mcp_setting

Scope = Mapping[str, Any]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def refusal(scope: Scope) -> tuple[int, str] | None:
    """Return (status, message) when the request must be refused, else None."""
    # Django's own request over the scope: its Host rule (ALLOWED_HOSTS, DEBUG's localhost names)
    # and its scheme (SECURE_PROXY_SSL_HEADER), as a view behind the same settings would see them.
    request = ASGIRequest(scope, io.BytesIO())
    try:
        host = request.get_host()
    except DisallowedHost:
        return 421, "This host is not served here; add it to ALLOWED_HOSTS."
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.scheme}://{host}" and not _trusted(origin):
        return 403, "Cross-origin requests to this MCP server are not allowed."
    return None


def _trusted(origin: str) -> bool:
    """Whether the Origin is listed, as Django's CSRF check reads CSRF_TRUSTED_ORIGINS (wildcards too)."""
    # Django's middleware keeps this rule to itself (CsrfViewMiddleware's private properties).
    scheme, _, netloc = origin.partition("://")
    for listed in (*mcp_setting("ALLOWED_ORIGINS"), *settings.CSRF_TRUSTED_ORIGINS):
        if "*" not in listed:
            if origin == listed:
                return True
            continue
        listed_scheme, _, pattern = listed.partition("://")
        if scheme == listed_scheme and is_same_domain(netloc, pattern.removeprefix("*")):
            return True
    return False


async def send_refusal(
    send: Send, status: int, message: str, extra_headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """Send a JSON-RPC error body with the given HTTP status."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra_headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def send_method_not_allowed(send: Send) -> None:
    """Refuse a method other than POST: the server is stateless and offers no event stream."""
    await send_refusal(
        send, 405, "This MCP server answers POST only; it offers no event stream.", ((b"allow", b"POST"),)
    )
