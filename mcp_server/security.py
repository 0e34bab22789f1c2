"""
Who may call the MCP endpoint: checks made before the SDK sees a request.

``Host`` must be one Django serves (``HttpRequest.get_host()``); a browser's ``Origin`` must be
this site's own or listed in ``MCP_SERVER["ALLOWED_ORIGINS"]`` or ``CSRF_TRUSTED_ORIGINS`` (the
scheme from ``SECURE_PROXY_SSL_HEADER`` behind a TLS proxy); a client with no Origin is not a
browser and is let through. No CORS headers are sent. The JSON content type and the body size
cap are the SDK's own checks (``mcp_server.asgi``). Why: docs/explanation/modules.md.
"""

import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest

from mcp_server.conf import mcp_setting

Scope = Mapping[str, Any]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def refusal(scope: Scope) -> tuple[int, str] | None:
    """Return (status, message) when the request must be refused, else None."""
    host = _header(scope, b"host") or ""
    request = HttpRequest()
    request.META["HTTP_HOST"] = host
    try:
        request.get_host()  # Django's own Host rule, DEBUG's localhost names included
    except DisallowedHost:
        return 421, "This host is not served here; add it to ALLOWED_HOSTS."
    origin = _header(scope, b"origin")
    if origin is not None:
        own_origin = f"{_scheme(scope)}://{host}"
        trusted = (*mcp_setting("ALLOWED_ORIGINS"), *settings.CSRF_TRUSTED_ORIGINS)
        if origin != own_origin and origin not in trusted:
            return 403, "Cross-origin requests to this MCP server are not allowed."
    return None


def _scheme(scope: Scope) -> str:
    """Return the request's scheme, trusting the proxy's header only where Django is told to."""
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if proxy_header:
        name, secure_value = proxy_header
        # Django names it as a META key (HTTP_X_FORWARDED_PROTO); ASGI has the raw header.
        raw_name = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        forwarded = _header(scope, raw_name)
        if forwarded is not None:
            return "https" if forwarded.split(",")[0].strip() == secure_value else "http"
    scheme: str = scope.get("scheme", "http")
    return scheme


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
