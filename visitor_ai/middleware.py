"""
WhiteNoise for a site served over ASGI (uvicorn, daphne).

WhiteNoise answers with a ``FileResponse``, whose file is a synchronous iterator:
under ASGI, Django then reads it in a thread after warning, on the first static
file of every process, that "StreamingHttpResponse must consume synchronous
iterators". Static files are small (our largest script is 35 KB compressed), so
this middleware reads the file in WhiteNoise's own thread and answers with the
bytes: no streaming, no warning. Everything else is WhiteNoise's: which file,
which encoding, the headers, 304s, ranges and HEAD. Before the first collectstatic,
when WhiteNoise serves the apps' own files (``WHITENOISE_USE_FINDERS``), a missing
STATIC_ROOT is expected and not warned about.

In settings, in place of ``whitenoise.middleware.WhiteNoiseMiddleware``::

    MIDDLEWARE = [
        "django.middleware.security.SecurityMiddleware",
        "visitor_ai.middleware.StaticFilesMiddleware",
        ...
    ]
"""

import os
from typing import Any

from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware

__all__ = ["StaticFilesMiddleware"]


# ignore[misc]: mypy refuses a subclass of Any (strict), and WhiteNoise's classes are Any to it:
# WhiteNoise ships no types (see pyproject's whitenoise.* override).
class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]
    """WhiteNoise's middleware, answering with the file's bytes rather than a stream."""

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
