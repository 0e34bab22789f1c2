"""
Django's ASGI handler with up to three speed-ups, each a key of ``VISITOR_AI_SPEEDUPS``:

- ``request_threads``: a thread kept, not one per request. Django's handler
  enters a fresh ``ThreadSensitiveContext`` for each request, so the
  request's first ``sync_to_async`` (an ORM query, the response's close)
  starts a thread, and its end another to join it; a database connection
  then never outlives its request. This handler gives each request a
  one-thread executor of its own, as Django does, through asgiref's
  ``ThreadSensitiveContext(executor=...)``, but takes it from those earlier
  requests left idle: concurrent requests still each have their own thread,
  and a kept thread's connection is reused as ``CONN_MAX_AGE`` allows. At
  most ``KEPT`` idle threads stay.
- ``loop_middleware``: Django's own middleware classes loaded as their
  event-loop subclasses (``visitor_ai.speedups.middleware``), with the
  settings still naming Django's classes (``check --deploy`` finds them by
  name).
- ``static_files``: ``whitenoise.middleware.WhiteNoiseMiddleware`` loaded as
  ``visitor_ai.speedups.staticfiles.StaticFilesMiddleware``.

It re-implements ``ASGIHandler.__call__`` as Django 5.2 to 6.1 write it, hence
the versions each is verified on (``visitor_ai.speedups.SPEEDUPS``).
``visitor_ai.asgi.get_asgi_application()`` serves with it when a site chose
one of the three and Django's own ``ASGIHandler`` otherwise.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers import asgi

from visitor_ai import speedups

# ASGI as Django's handler takes it (django-stubs' own aliases are private to its stub).
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

__all__ = ["ASGIHandler", "chosen_handler"]

#: WhiteNoise's middleware, and what the ``static_files`` speed-up loads in its place.
STATIC_FILES = {
    "whitenoise.middleware.WhiteNoiseMiddleware": "visitor_ai.speedups.staticfiles.StaticFilesMiddleware"
}


def chosen_handler() -> ASGIHandler | None:
    """Return this handler with the speed-ups the site chose, or None when it chose none of them."""
    threads = speedups.options("request_threads")
    replaced: dict[str, str] = {}
    if speedups.options("loop_middleware") is not None:
        from visitor_ai.speedups.middleware import ON_THE_LOOP

        replaced.update(ON_THE_LOOP)
    if speedups.options("static_files") is not None:
        replaced.update(STATIC_FILES)
    if threads is None and not replaced:
        return None
    return ASGIHandler(kept_threads=None if threads is None else threads["KEPT"], replaced=replaced)


class ASGIHandler(asgi.ASGIHandler):
    """Django's ASGIHandler, keeping request threads and loading faster middleware in place of Django's."""

    def __init__(self, *, kept_threads: int | None = 16, replaced: Mapping[str, str] | None = None) -> None:
        #: At most this many idle request threads stay for the next requests; None: a thread a request.
        self.kept_threads = kept_threads
        #: Django's (or WhiteNoise's) middleware path -> the class loaded in its place.
        self.replaced = dict(replaced or {})
        # Owned by this handler (one per process's application): executors no request holds now.
        self._idle: list[ThreadPoolExecutor] = []
        super().__init__()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Serve an HTTP request, its sync work on a kept thread of its own."""
        if self.kept_threads is None:
            return await super().__call__(scope, receive, send)
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self._idle.pop() if self._idle else ThreadPoolExecutor(1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # Idle here as a rule: asgiref waits for a running sync call even when the request is
            # cancelled. Should one still run (cancelled twice), the next request's sync work waits
            # behind it on the same one thread: serialised, never at once.
            if len(self._idle) < self.kept_threads:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)  # its thread ends once idle; nothing waits for it

    def load_middleware(self, is_async: bool = False) -> None:
        """Load ``settings.MIDDLEWARE``, each class ``replaced`` names as its replacement."""
        with self._replaced_middleware():
            super().load_middleware(is_async)

    @contextlib.contextmanager
    def _replaced_middleware(self) -> Iterator[None]:
        configured = settings.MIDDLEWARE
        # Django's loader reads the dotted names from settings (nothing else can hand it classes); the
        # list is swapped only while this handler is built, at start-up, and put back as it was.
        settings.MIDDLEWARE = [self.replaced.get(name, name) for name in configured]
        try:
            yield
        finally:
            settings.MIDDLEWARE = configured
