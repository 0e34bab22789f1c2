"""
Build a site's one ASGI application: Django's pages (and, in development, the
static files), the MCP endpoint and the WebSocket routes, for daphne or uvicorn.
A site's ``asgi.py``::

    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")

    from visitor_ai.asgi import get_asgi_application

    application = get_asgi_application(gc_freeze=True)

Only what ``INSTALLED_APPS`` holds is routed: ``mcp_server`` adds its endpoint
(``MCP_SERVER["PATH"]``, ``/api/mcp``) and the lifespan, ``byoa`` adds the
wallet route (``BYOA["WS_PATH"]``, ``/byoa/ws``).

With ``gc_freeze=True`` (a site's ``asgi.py``, once per process) the URLconf
is imported now rather than at the first request, and everything made so far
(settings, apps, models, every view module, the manifests) is moved out of the
cyclic garbage collector's way with ``gc.freeze()``: it lives as long as the
process, and an older generation's collection then walks what requests left
(~12,000 objects in the demo project) rather than ~170,000 start-up objects
too (``benchmarks/visitor_action.py`` prints both, and the collector's CPU per
request). Leave it off where the application is built more than once in a
process (tests): a cycle frozen in is never collected, even once it is dropped.

Django's pages are served by ``visitor_ai.handler.ASGIHandler``: Django's
ASGI handler, keeping a thread per concurrent request rather than starting one
per request, and loading Django's security middleware as its event-loop
subclasses (``visitor_ai.middleware.ON_THE_LOOP``).

Origin policy, route by route:
- HTTP pages: Django's own CSRF and host checks.
- /api/mcp: Host must be in ALLOWED_HOSTS and a browser Origin must be the
  site's own (mcp_server/security.py); no CORS headers, ever.
- WebSockets: each route says its own policy. The BYOA wallet route must accept
  connections that carry no Origin (a desktop wallet sends none), so it is not
  wrapped in AllowedHostsOriginValidator, which refuses those; instead its
  consumer refuses, at the handshake, any request whose Origin is not the
  endpoint's own (a page of another site), and it reads no cookie. Routes a
  site passes in ``websocket_routes`` are routed as they are: wrap them in the
  validators they need.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING

import django

if TYPE_CHECKING:  # imported where used: Django is set up first
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import URLPattern

    from byoa.hub import HubLifespan
    from mcp_server.asgi import MCPApplication

__all__ = ["get_asgi_application"]


def get_asgi_application(
    *,
    serve_static: bool | None = None,
    websocket_routes: Sequence[URLPattern] = (),
    gc_freeze: bool = False,
) -> ProtocolTypeRouter:
    """Return the site's ASGI application; static files are served when ``serve_static`` (default: DEBUG).

    With ``gc_freeze``, load the URLconf and freeze what start-up made (see the module's docstring).
    """
    # Set Django up (apps, settings) before importing anything that uses models, as
    # django.core.asgi.get_asgi_application() does; then Django's handler with its threads
    # kept and its security middleware on the event loop (visitor_ai.handler).
    django.setup(set_prefix=False)
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from visitor_ai.handler import ASGIHandler

    django_application: ASGIHandler | ASGIStaticFilesHandler = ASGIHandler()

    from channels.routing import ProtocolTypeRouter
    from django.apps import apps
    from django.conf import settings
    from django.urls import path, re_path

    if settings.DEBUG if serve_static is None else serve_static:
        # One process serves everything; behind a proxy or CDN that serves
        # /static/ from `collectstatic`, leave it off.
        django_application = ASGIStaticFilesHandler(django_application)

    # channels routes ASGI applications with Django's path() and re_path(); django-stubs types them for views.
    http_routes = [re_path(r"", django_application)]  # type: ignore[arg-type]
    protocols: dict[str, object] = {}  # ASGI applications, by scope type
    lifespan: MCPApplication | HubLifespan | None = None
    if apps.is_installed("mcp_server"):
        from mcp_server.asgi import MCPApplication
        from mcp_server.conf import mcp_setting

        mcp_application = MCPApplication()
        http_routes.insert(0, path(mcp_setting("PATH").lstrip("/"), mcp_application))  # type: ignore[arg-type]
        # Servers with a lifespan (uvicorn) start and stop the MCP session
        # manager there; daphne has none, and it starts on the first request.
        protocols["lifespan"] = lifespan = mcp_application

    websockets: list[URLPattern] = []
    if apps.is_installed("byoa"):
        from byoa.hub import HubLifespan
        from byoa.routing import websocket_urlpatterns

        websockets.extend(websocket_urlpatterns)
        # Servers with a lifespan (uvicorn, hypercorn) start this process's hub
        # there and close it at shutdown, so a process that stops leaves no
        # pairing marked as connected to it; daphne has none, and the hub starts
        # on first use and leaves at exit (byoa.hub).
        protocols["lifespan"] = HubLifespan(lifespan)
    websockets.extend(websocket_routes)

    protocols["http"] = _router(http_routes)
    if websockets:
        protocols["websocket"] = _router(websockets)
    application = ProtocolTypeRouter(protocols)
    if gc_freeze:
        _freeze_start_up_objects()
    return application


def _freeze_start_up_objects() -> None:
    """Import the URLconf, collect start-up's garbage, and freeze the rest for the process's life."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  # imports every URL module and so every view module
    # Garbage first: what is frozen is never collected, and start-up leaves cycles behind (imports).
    gc.collect()
    gc.freeze()


def _router(routes: list[URLPattern]) -> URLRouter:
    from channels.routing import URLRouter

    # types-channels asks for its _ExtendedURLPattern, a stub-only class that no real path() returns.
    return URLRouter(routes)  # type: ignore[arg-type]
