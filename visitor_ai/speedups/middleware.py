"""
Django's own middleware, subclassed only to run their hooks on the event loop:
the ``loop_middleware`` speed-up (``visitor_ai.speedups``).

Django's ``MiddlewareMixin`` runs each hook under ASGI through
``sync_to_async``, a thread hop each way per middleware per request, because
a hook might block. The hooks of these classes, as Django 5.2 to 6.1 write
them, read and write headers, cookies and request attributes and block on
nothing, but where they say so in ``blocking``: the session saves itself to
its store, the messages may be stored in the session, and CSRF may read its
secret from the session or its token from a multipart body. Those hop only
when there is something to do, as Django's own class always does. The code
that runs is Django's, unchanged; only where it runs differs. Should a later
Django's hook query the database, it fails at once on the event loop
(``SynchronousOnlyOperation``) rather than blocking it.

Settings keep naming Django's classes (``check --deploy`` and the admin's
checks find them by name); ``visitor_ai.speedups.handler.ASGIHandler`` loads
``ON_THE_LOOP``'s subclass in place of each. Under WSGI and Django's test
client, Django's own class runs.
"""

from collections.abc import Callable
from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware import clickjacking, common, csrf, security
from django.utils.deprecation import MiddlewareMixin

__all__ = [
    "ON_THE_LOOP",
    "AuthenticationMiddleware",
    "CommonMiddleware",
    "CsrfViewMiddleware",
    "EventLoopHooks",
    "MessageMiddleware",
    "SecurityMiddleware",
    "SessionMiddleware",
    "XFrameOptionsMiddleware",
]

_Hook = Callable[..., HttpResponseBase | None]
_HookName = Literal["request", "view", "response"]
# What process_response takes and returns; django-stubs types some as taking only an HttpResponse,
# where Django hands each middleware any response (a StreamingHttpResponse too).
_ResponseHook = Callable[[HttpRequest, HttpResponseBase], HttpResponseBase]


class EventLoopHooks(MiddlewareMixin):
    """Run a ``MiddlewareMixin``'s hooks on the event loop under ASGI, for hooks that block on nothing.

    Put it first among the bases of a subclass of the middleware. Under WSGI
    the middleware is as it was. A subclass whose hook may block for some
    requests says so in ``blocking`` (``SessionMiddleware`` below): that hook
    then runs in the request's thread, as Django runs it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        view_hook: _Hook | None = getattr(self, "process_view", None)
        if self.async_mode and view_hook is not None:
            # Django's handler awaits an async process_view, and runs a sync one through sync_to_async.
            async def process_view(
                request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
            ) -> HttpResponseBase | None:
                if self.blocking(request, "view"):
                    return await sync_to_async(view_hook, thread_sensitive=True)(request, view, args, kwargs)
                return view_hook(request, view, args, kwargs)

            # On the instance, which the handler reads (setattr: mypy holds each class's own signature).
            setattr(self, "process_view", process_view)  # noqa: B010

    def blocking(self, request: HttpRequest, hook: _HookName) -> bool:
        """Return True when this hook may block for this request (it then runs in the request's thread)."""
        return False

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        request_hook: _Hook | None = getattr(self, "process_request", None)
        response = None
        if request_hook is not None and self.blocking(request, "request"):
            response = await sync_to_async(request_hook, thread_sensitive=True)(request)
        elif request_hook is not None:
            response = request_hook(request)
        if response is None:
            response = await self.get_response(request)  # type: ignore[misc]  # async in async mode
        return await self.aprocess_response(request, response)

    async def aprocess_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        """Return ``process_response``'s answer, on the event loop unless ``blocking`` says otherwise."""
        if self.blocking(request, "response"):
            return await self._respond_in_thread(request, response)
        return self._respond(request, response)

    def _respond(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        response_hook: _ResponseHook | None = getattr(self, "process_response", None)
        return response if response_hook is None else response_hook(request, response)

    async def _respond_in_thread(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        # As MiddlewareMixin runs every hook: in the request's thread-sensitive thread.
        return await sync_to_async(self._respond, thread_sensitive=True)(request, response)


class CommonMiddleware(EventLoopHooks, common.CommonMiddleware):
    """Django's CommonMiddleware (APPEND_SLASH, PREPEND_WWW, Content-Length), on the event loop."""


class AuthenticationMiddleware(EventLoopHooks, auth.AuthenticationMiddleware):
    """Django's AuthenticationMiddleware, on the event loop: it only sets lazy ``user`` and ``auser``."""


class SessionMiddleware(EventLoopHooks, sessions.SessionMiddleware):
    """Django's SessionMiddleware, on the event loop but for the save, which runs as Django runs it."""

    def blocking(self, request: HttpRequest, hook: _HookName) -> bool:
        """Return True for a response whose session is saved (to its store, the database)."""
        if hook != "response":
            return False
        # Nothing to save: only the cookie's deletion or a Vary header, read from flags in memory.
        session = getattr(request, "session", None)
        return session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)


class MessageMiddleware(EventLoopHooks, messages.MessageMiddleware):
    """Django's MessageMiddleware, on the event loop but when it stores messages, which may be in the session."""

    def blocking(self, request: HttpRequest, hook: _HookName) -> bool:
        """Return True for a response that stores messages (no message added or read: nothing to store)."""
        if hook != "response":
            return False
        # FallbackStorage keeps what its cookie cannot hold in the session, which may load from the database.
        storage = getattr(request, "_messages", None)
        return storage is not None and (storage.used or storage.added_new)


class SecurityMiddleware(EventLoopHooks, security.SecurityMiddleware):
    """Django's SecurityMiddleware (HSTS, nosniff, referrer policy, SSL redirect...), on the event loop."""


class XFrameOptionsMiddleware(EventLoopHooks, clickjacking.XFrameOptionsMiddleware):
    """Django's XFrameOptionsMiddleware, on the event loop."""


class CsrfViewMiddleware(EventLoopHooks, csrf.CsrfViewMiddleware):
    """Django's CsrfViewMiddleware, on the event loop but where its secret or its token needs I/O."""

    def blocking(self, request: HttpRequest, hook: _HookName) -> bool:
        """Return True with the secret in the session, and for the token of a multipart POST."""
        if settings.CSRF_USE_SESSIONS:  # the session may load from the database
            return True
        # A form's token is read from request.POST; a multipart body's parser may write files to disk.
        return hook == "view" and request.content_type == "multipart/form-data"


#: What ``visitor_ai.speedups.handler.ASGIHandler`` loads for each of Django's middleware classes.
ON_THE_LOOP = {
    f"django.{module}.{name}": f"{__name__}.{name}"
    for module, name in (
        ("middleware.security", "SecurityMiddleware"),
        ("contrib.sessions.middleware", "SessionMiddleware"),
        ("middleware.common", "CommonMiddleware"),
        ("middleware.csrf", "CsrfViewMiddleware"),
        ("contrib.auth.middleware", "AuthenticationMiddleware"),
        ("contrib.messages.middleware", "MessageMiddleware"),
        ("middleware.clickjacking", "XFrameOptionsMiddleware"),
    )
}

try:  # Django 6.0 and later
    from django.middleware import csp
except ImportError:  # pragma: no cover  (Django 5.2 has no Content-Security-Policy middleware)
    pass
else:

    class ContentSecurityPolicyMiddleware(EventLoopHooks, csp.ContentSecurityPolicyMiddleware):
        """Django's ContentSecurityPolicyMiddleware (the policy headers and their nonce), on the event loop."""

    __all__.append("ContentSecurityPolicyMiddleware")
    ON_THE_LOOP["django.middleware.csp.ContentSecurityPolicyMiddleware"] = (
        f"{__name__}.ContentSecurityPolicyMiddleware"
    )
