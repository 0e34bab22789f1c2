"""
Build a site's one ASGI application: Django's pages (and, in development, the
static files), the MCP endpoint and the WebSocket routes, for any ASGI server.
Only what ``INSTALLED_APPS`` holds is routed: ``mcp_server`` adds its endpoint
and its lifespan, ``byoa`` the wallet's routes. A site's ``asgi.py`` calls
``get_asgi_application()`` after setting ``DJANGO_SETTINGS_MODULE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import django

if TYPE_CHECKING:  # imported where used: Django is set up first
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import URLPattern

    from mcp_server.asgi import MCPApplication

__all__ = ["get_asgi_application"]


def get_asgi_application(
    *,
    serve_static: bool | None = None,
    websocket_routes: Sequence[URLPattern] = (),
) -> ProtocolTypeRouter:
    """Return the site's ASGI application; static files are served when ``serve_static`` (default: DEBUG)."""
    # Set Django up (apps, settings) before importing anything that uses models, as
    # django.core.asgi.get_asgi_application() does.
    django.setup(set_prefix=False)
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.handlers.asgi import ASGIHandler

    from visitor_ai.collector import FreezeAfterStartup, freeze_start_up

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
    lifespan: MCPApplication | None = None
    if apps.is_installed("mcp_server"):
        from mcp_server.asgi import MCPApplication
        from mcp_server.conf import mcp_setting

        mcp_application = MCPApplication()
        http_routes.insert(0, path(mcp_setting("PATH").lstrip("/"), mcp_application))  # type: ignore[arg-type]
        # Servers with a lifespan (uvicorn) start and stop the MCP session
        # manager there; daphne has none, and it starts on the first request.
        lifespan = mcp_application

    websockets: list[URLPattern] = []
    if apps.is_installed("byoa"):
        from byoa.routing import websocket_routes as byoa_routes

        websockets.extend(byoa_routes())
    websockets.extend(websocket_routes)
    # Any other path (/anything, /api/mcp, /byoa/wsX): refused at the handshake with 403, quietly;
    # left to the router, it raises "No route found" into the server's log and answers 500.
    from channels.security.websocket import WebsocketDenier

    websockets.append(re_path(r"", WebsocketDenier.as_asgi()))  # type: ignore[arg-type]

    protocols["http"] = _router(http_routes)
    protocols["websocket"] = _router(websockets)
    if lifespan is not None:
        protocols["lifespan"] = FreezeAfterStartup(lifespan)
    application = ProtocolTypeRouter(protocols)
    freeze_start_up("built")  # start-up's objects out of the collector's way (visitor_ai.collector)
    return application


def _router(routes: list[URLPattern]) -> URLRouter:
    from channels.routing import URLRouter

    # types-channels asks for its _ExtendedURLPattern, a stub-only class that no real path() returns.
    return URLRouter(routes)  # type: ignore[arg-type]
