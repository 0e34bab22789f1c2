"""
Answer 503 with Retry-After while the database cannot be reached (restarted,
failed over, its connections exhausted), instead of a 500 page.

A connection error is transient by nature: the pool hands out a fresh
connection once the database is back (settings.DATABASES), so the client is
told to retry rather than that the site is broken.

It has no work to do on the way in or out, so it hands each request straight
on: under ASGI its call is the next middleware's coroutine (no thread hop, no
extra coroutine); under WSGI, the next middleware's response. Django calls
``process_exception`` only when a view raised, in a thread of its own under
ASGI, so it may stay synchronous.
"""

import logging
from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

RETRY_AFTER_SECONDS = 5

logger = logging.getLogger(__name__)

_Response = HttpResponseBase | Awaitable[HttpResponseBase]


class DatabaseUnavailableMiddleware:
    """Turn a view's database connection error into a plain-text 503."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], _Response]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)  # Django then awaits what __call__ returns

    def __call__(self, request: HttpRequest) -> _Response:
        """Return the next middleware's answer: its coroutine under ASGI, its response under WSGI."""
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """Return a 503 for a database connection error, else None (Django's own handling)."""
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        # The error's text names the host and port, never the password; no traceback is needed.
        logger.warning("Database unavailable for %s %s: %s", request.method, request.path, exception)
        response = HttpResponse(
            "The service is briefly unavailable. Please try again in a few seconds.\n",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
