"""
The library app's middleware, every class async-native under ASGI (no thread
hop per request) and still a plain middleware under WSGI or Django's sync test
client.

``StaticFilesMiddleware`` is WhiteNoise for a site served over ASGI (uvicorn,
daphne). WhiteNoise's own middleware is synchronous only: under ASGI Django
then runs it, and with it the whole rest of every request, through a thread
and back (``sync_to_async`` around it, ``async_to_sync`` inside). This one
finds the file on the event loop, reads it in a thread (a file read blocks),
and hands every other request straight on. It answers with the file's bytes
rather than WhiteNoise's ``FileResponse``, a synchronous iterator that Django
under ASGI reads in a thread after warning, on the first static file of every
process, that "StreamingHttpResponse must consume synchronous iterators";
static files are small (our largest script is 35 KB compressed). Everything
else is WhiteNoise's: which file, which encoding, the headers, 304s, ranges
and HEAD. Before the first collectstatic, when WhiteNoise serves the apps' own
files (``WHITENOISE_USE_FINDERS``), a missing STATIC_ROOT is expected and not
warned about.

The other classes are Django's own middleware, subclassed only to run their
hooks on the event loop. Django's ``MiddlewareMixin`` runs each hook under
ASGI through ``sync_to_async``, a thread hop each way per middleware per
request, because a hook might block. The hooks of these four, as Django 6.1
writes them, read and write headers, cookies and request attributes and block
on nothing, but two: the session saves itself to its store, and the messages
may be stored in the session (which may load it from the database). Those two
hop only when there is something to save, as Django's own class always does.
The code that runs is Django's, unchanged; only where it runs differs. Should
a later Django's hook query the database, it fails at once on the event loop
(``SynchronousOnlyOperation``) rather than blocking it. The admin's system
checks accept these subclasses (they look for subclasses).

Django's security middleware (SecurityMiddleware, ContentSecurityPolicyMiddleware,
CsrfViewMiddleware, XFrameOptionsMiddleware) keeps Django's own names in
settings: ``check --deploy`` finds each by its exact dotted name and, without
it, skips the checks of the settings it applies (HSTS, secure CSRF cookie, ...).
``visitor_ai.handler.ASGIHandler`` (what ``visitor_ai.asgi`` serves) loads the
subclass ``ON_THE_LOOP`` names for each in its place, written here like the
others; under WSGI and Django's test client, Django's own class runs. Their
hooks read and write headers and cookies, but CSRF's: with ``CSRF_USE_SESSIONS``
its secret is in the session (a database read), and a multipart POST's token
is in a body it parses (files it may write to disk); those run in the thread.

In settings, in place of Django's names::

    MIDDLEWARE = [
        "django.middleware.security.SecurityMiddleware",
        "visitor_ai.middleware.StaticFilesMiddleware",  # WhiteNoise, right after SecurityMiddleware
        "django.middleware.csp.ContentSecurityPolicyMiddleware",
        "visitor_ai.middleware.SessionMiddleware",
        "visitor_ai.middleware.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "visitor_ai.middleware.AuthenticationMiddleware",
        "visitor_ai.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ]
"""

import asyncio
import os
from collections.abc import Callable
from typing import Any, Literal

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware import clickjacking, common, csp, csrf, security
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

__all__ = [
    "ON_THE_LOOP",
    "AuthenticationMiddleware",
    "CommonMiddleware",
    "ContentSecurityPolicyMiddleware",
    "CsrfViewMiddleware",
    "EventLoopHooks",
    "MessageMiddleware",
    "SecurityMiddleware",
    "SessionMiddleware",
    "StaticFilesMiddleware",
    "XFrameOptionsMiddleware",
]

_Hook = Callable[..., HttpResponseBase | None]
_HookName = Literal["request", "view", "response"]
# What process_response takes and returns; django-stubs types some as taking only an HttpResponse,
# where Django hands each middleware any response (a StreamingHttpResponse too).
_ResponseHook = Callable[[HttpRequest, HttpResponseBase], HttpResponseBase]


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


class ContentSecurityPolicyMiddleware(EventLoopHooks, csp.ContentSecurityPolicyMiddleware):
    """Django's ContentSecurityPolicyMiddleware (the policy headers and their nonce), on the event loop."""


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


#: What ``visitor_ai.handler.ASGIHandler`` loads for each of Django's security middleware classes.
ON_THE_LOOP = {
    "django.middleware.security.SecurityMiddleware": f"{__name__}.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware": f"{__name__}.ContentSecurityPolicyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware": f"{__name__}.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware": f"{__name__}.XFrameOptionsMiddleware",
}
