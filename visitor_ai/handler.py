"""
Django's ASGI handler, with two costs of every request taken out: its new
thread, and the thread hops of Django's security middleware.

A thread kept, not one per request. Django's ASGIHandler enters a fresh
``ThreadSensitiveContext`` for each request, so the request's first
``sync_to_async`` (an ORM query, a signal's sync receivers, the response's
close) starts a thread for it, and its end starts another to join that one
(~250 us of CPU a request, ``benchmarks/visitor_action.py``). It also means a
database connection never outlives its request: each thread opens its own.
This handler gives each request a one-thread executor of its own, as Django
does, through asgiref's ``ThreadSensitiveContext(executor=...)``, but takes it
from the ones earlier requests left idle and puts it back after: concurrent
requests still each run their sync work on their own thread, and a kept
thread's database connection is reused as ``CONN_MAX_AGE`` allows (the
project's SQLite settings use it; a PostgreSQL pool takes its connection
back at each request's end either way). At most ``KEPT_THREADS`` idle ones
are kept; a busier moment's extra ones are let go.

Django's security middleware on the event loop. Under ASGI each of Django's
``MiddlewareMixin`` classes runs its hooks through ``sync_to_async``: a hop to
the request's thread and back per hook, eight per request for Security, CSP,
CSRF and X-Frame-Options (~60 us of CPU each). Settings keep naming Django's
classes, as ``check --deploy`` wants (it finds each by its dotted name, and
without it skips the checks of the settings it applies); this handler loads
``visitor_ai.middleware.ON_THE_LOOP``'s subclass in place of each, which runs
Django's own hooks on the event loop (they read and write headers and
cookies), or in the thread where one may block (CSRF with
``CSRF_USE_SESSIONS``, or reading a multipart body).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers import asgi

# ASGI as Django's handler takes it (django-stubs' own aliases are private to its stub).
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

__all__ = ["KEPT_THREADS", "ASGIHandler"]

#: Idle request threads kept for the next requests: past it, a busy moment's extra threads end.
KEPT_THREADS = 16


class ASGIHandler(asgi.ASGIHandler):
    """Django's ASGIHandler, keeping request threads and loading the security middleware's loop subclasses."""

    def __init__(self) -> None:
        # Owned by this handler (one per process's application): executors no request holds now.
        self._idle: list[ThreadPoolExecutor] = []
        super().__init__()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Serve an HTTP request, its sync work on a kept thread of its own."""
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
            if len(self._idle) < KEPT_THREADS:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)  # its thread ends once idle; nothing waits for it

    def load_middleware(self, is_async: bool = False) -> None:
        """Load ``settings.MIDDLEWARE``, each of Django's security classes as its event-loop subclass."""
        with _loop_subclasses():
            super().load_middleware(is_async)


@contextlib.contextmanager
def _loop_subclasses() -> Iterator[None]:
    from visitor_ai.middleware import ON_THE_LOOP

    configured = settings.MIDDLEWARE
    # Django's loader reads the dotted names from settings (nothing else can hand it classes); the
    # list is swapped only while this handler is built, at start-up, and put back as it was.
    settings.MIDDLEWARE = [ON_THE_LOOP.get(name, name) for name in configured]
    try:
        yield
    finally:
        settings.MIDDLEWARE = configured
