"""
Answer 503 with Retry-After while the database cannot be reached (restarted,
failed over, its connections exhausted), instead of a 500 page.

A connection error is transient by nature: the pool hands out a fresh
connection once the database is back (settings.DATABASES), so the client is
told to retry rather than that the site is broken.
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.deprecation import MiddlewareMixin

RETRY_AFTER_SECONDS = 5

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turn a view's database connection error into a plain-text 503."""

    def process_exception(self, request, exception):
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
