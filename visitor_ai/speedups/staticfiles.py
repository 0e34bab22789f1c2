"""
WhiteNoise's middleware for a site served over ASGI: the ``static_files``
speed-up (``visitor_ai.speedups``), loaded in place of
``whitenoise.middleware.WhiteNoiseMiddleware`` by
``visitor_ai.speedups.handler.ASGIHandler``.

WhiteNoise's own middleware is synchronous only: under ASGI Django runs it,
and with it the rest of every request, through a thread and back. This one
finds the file on the event loop, reads it in a thread (a file read blocks),
and hands every other request straight on. It answers with the file's bytes
rather than WhiteNoise's ``FileResponse``, a synchronous iterator that Django
under ASGI reads in a thread after warning that "StreamingHttpResponse must
consume synchronous iterators"; static files are small. Everything else is
WhiteNoise's: which file, which encoding, the headers, 304s, ranges and HEAD.
It uses WhiteNoise's attributes (``files``, ``find_file``, ``autorefresh``),
hence the versions it is verified on. Before the first collectstatic, when
WhiteNoise serves the apps' own files (``WHITENOISE_USE_FINDERS``), a missing
STATIC_ROOT is expected and not warned about.
"""

import asyncio
import os
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware

__all__ = ["StaticFilesMiddleware"]


# ignore[misc]: mypy refuses a subclass of Any (strict), and WhiteNoise's classes are Any to it:
# WhiteNoise ships no types (see pyproject's whitenoise.* override).
class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]
    """WhiteNoise's middleware, async-native, answering with the file's bytes rather than a stream."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any], **options: Any) -> None:
        super().__init__(get_response, **options)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)  # Django then awaits it and hands it an async get_response

    def __call__(self, request: HttpRequest) -> Any:
        """Serve a static file, or pass the request on (a coroutine under ASGI, a response under WSGI)."""
        if self.async_mode:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:  # DEBUG's WhiteNoise looks on disk for every request
            static_file = await asyncio.to_thread(self.find_file, request.path_info)
        else:
            static_file = self.files.get(request.path_info)  # a dict made at start-up
        if static_file is None:
            response: HttpResponseBase = await self.get_response(request)
            return response
        return await asyncio.to_thread(self.serve, static_file, request)

    def add_files(self, root: str, prefix: str | None = None) -> None:
        """Add the files under ``root``; skip a missing one while the apps' files are served."""
        if self.use_finders and not os.path.isdir(root):
            return
        super().add_files(root, prefix)

    @staticmethod
    def serve(static_file: Any, request: HttpRequest) -> HttpResponse:
        """Return WhiteNoise's response for ``static_file`` with its body read."""
        found = static_file.get_response(request.method, request.META)
        body = b""
        if found.file is not None:
            with found.file:
                body = found.file.read()
        response = HttpResponse(body, status=int(found.status))
        del response["Content-Type"]  # WhiteNoise's own headers name it
        for key, value in found.headers:
            response[key] = value
        return response
