"""
Refuse a request body past its limit while it arrives, before any view runs::

    from visitor_ai.limits import BodyLimit

    application = BodyLimit(get_asgi_application())

A ``Content-Length`` over ``max_bytes`` (default: Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``;
``None`` there means none) is answered 413 unread; a body that grows past it is cut off (the
application's ``receive`` gets ``http.disconnect``, so no view runs) and answered 413. It applies
to every path; other scopes pass through. Why: docs/explanation/modules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from asgiref.typing import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope

    Message = dict[str, Any]
    Receive = Callable[[], Awaitable[Message]]
    Send = Callable[[Message], Awaitable[None]]

__all__ = ["BodyLimit"]

_DEFAULT: Any = object()  # DATA_UPLOAD_MAX_MEMORY_SIZE, read when the first request comes
_TOO_LARGE = b'{"error": "body-too-large", "message": "The request body is larger than this server accepts."}'


class BodyLimit:
    """An ASGI application that refuses HTTP request bodies larger than ``max_bytes`` with 413."""

    def __init__(self, application: ASGI3Application, max_bytes: int | None = _DEFAULT) -> None:
        self.application = application
        self._max_bytes = max_bytes

    @property
    def max_bytes(self) -> int | None:
        """Return the limit in bytes (None: none)."""
        if self._max_bytes is _DEFAULT:
            from django.conf import settings

            limit: int | None = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return limit
        return self._max_bytes

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        """Serve one connection: an HTTP request's body is counted, anything else passes through."""
        limit = self.max_bytes
        if scope["type"] != "http" or limit is None:
            await self.application(scope, receive, send)
            return
        await self._limited(scope, cast("Receive", receive), cast("Send", send), limit)

    async def _limited(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        if _declared_length(scope) > limit:
            await _refuse(send)
            return
        received = 0
        over = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True  # what came is dropped; the application hears that the client left
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if over and not started:
                return  # an application that answers a client it was told is gone: the 413 goes instead
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.application(
            scope, cast("ASGIReceiveCallable", counted_receive), cast("ASGISendCallable", watched_send)
        )
        if over and not started:
            await _refuse(send)


def _declared_length(scope: Scope) -> int:
    """Return the request's Content-Length, or -1 when it has none (chunked) or an unreadable one."""
    for name, value in cast("dict[str, Any]", scope).get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return -1  # the server's own parser refuses it before this; nothing to count here
    return -1


async def _refuse(send: Send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(_TOO_LARGE)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": _TOO_LARGE})
