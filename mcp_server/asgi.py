"""
The ASGI application that serves the MCP endpoint: the SDK's Streamable HTTP transport,
stateless and answering JSON (no SSE, no ``Mcp-Session-Id``), so any process can answer any
request. Its session manager runs in each event loop that serves requests, started by the
lifespan (uvicorn) or by the loop's first request (daphne, which has none). Any method but POST
is answered ``405 Method Not Allowed`` with ``Allow: POST``. Why: docs/explanation/modules.md.
"""

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from mcp_server.conf import mcp_setting
from mcp_server.security import refusal, send_method_not_allowed, send_refusal
from mcp_server.visitor_sessions import COOKIES_SCOPE_KEY

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette

# ASGI, as loosely as the servers speak it (asgiref.typing's TypedDicts require keys the spec makes optional).
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class _LoopServer:
    """An MCP server and its running session manager, bound to one event loop."""

    def __init__(self) -> None:
        # The MCP SDK (about a second of CPU to import) is imported here, when the server is built,
        # not with this module: with the ASGI application. Uvicorn's lifespan builds it at start-up
        # anyway; under daphne (no lifespan) a process that never serves /api/mcp never pays it.
        from mcp.server.transport_security import TransportSecuritySettings

        from mcp_server.server import build_server

        server = build_server()
        self.app: Starlette = server.streamable_http_app(
            streamable_http_path=mcp_setting("PATH"),
            json_response=True,
            stateless_http=True,
            max_request_body_size=mcp_setting("MAX_BODY_BYTES"),
            # Host and Origin are checked by mcp_server.security against Django's
            # settings; the SDK still requires a JSON content type on POST.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self._session_manager: StreamableHTTPSessionManager = server.session_manager
        self._started = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Run the session manager in this loop; return once it runs, or raise its error."""

        async def run() -> None:
            async with self._session_manager.run():
                self._started.set()
                await self._stop.wait()

        self._task = asyncio.create_task(run(), name="mcp-session-manager")
        started = asyncio.create_task(self._started.wait())
        # If run() fails, surface its error rather than waiting forever.
        await asyncio.wait({self._task, started}, return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            started.cancel()
            self._task.result()

    async def stop(self) -> None:
        """Stop the session manager and wait until it has."""
        self._stop.set()
        if self._task is not None:
            await self._task


class MCPApplication:
    """Serve the site's MCP tools over Streamable HTTP; an ASGI 3 application."""

    def __init__(self) -> None:
        self._servers: dict[asyncio.AbstractEventLoop, _LoopServer] = {}
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            raise ValueError(f"MCPApplication serves http and lifespan, not {scope['type']!r}")
        refused = refusal(scope)
        if refused is not None:
            await send_refusal(send, *refused)
            return
        if scope["method"] != "POST":
            await send_method_not_allowed(send)
            return
        server = await self._server_for_this_loop()
        # A tool that starts the visitor's session leaves its cookie here (visitor_sessions).
        scope[COOKIES_SCOPE_KEY] = []

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start" and scope[COOKIES_SCOPE_KEY]:
                cookies = [(b"set-cookie", value.encode("latin-1")) for value in scope[COOKIES_SCOPE_KEY]]
                message = {**message, "headers": [*message.get("headers", []), *cookies]}
            await send(message)

        await server.app(scope, receive, send_with_cookies)

    async def _server_for_this_loop(self) -> _LoopServer:
        loop = asyncio.get_running_loop()
        server = self._servers.get(loop)
        if server is not None:
            return server
        lock = self._locks.setdefault(loop, asyncio.Lock())
        async with lock:
            if loop not in self._servers:
                server = _LoopServer()
                await server.start()
                self._servers[loop] = server
        return self._servers[loop]

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self._server_for_this_loop()
                except Exception as error:  # report it to the server, which exits
                    await send({"type": "lifespan.startup.failed", "message": str(error)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                server = self._servers.pop(asyncio.get_running_loop(), None)
                if server is not None:
                    await server.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
