"""
The project's one ASGI application: Django pages, the MCP endpoint, and the
WebSocket routes, served together by daphne (`make run`) or uvicorn.

Origin policy, route by route:
- HTTP pages: Django's own CSRF and host checks.
- /api/mcp: Host must be in ALLOWED_HOSTS and a browser Origin must be this
  site's own (mcp_server/security.py); no CORS headers, ever.
- WebSockets: each app's routes say their own policy. The BYOA wallet route
  (/byoa/ws) must accept connections that carry no Origin (a desktop wallet
  sends none), so it is not wrapped in AllowedHostsOriginValidator, which
  refuses those; instead its consumer refuses, at the handshake, any request
  whose Origin is not the endpoint's own (a page of another site), and it
  reads no cookie.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")

# Set Django up (apps, settings) before importing anything that uses models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from byoa.routing import websocket_urlpatterns as byoa_websocket_urlpatterns  # noqa: E402
from mcp_server.asgi import MCPApplication  # noqa: E402
from mcp_server.conf import mcp_setting  # noqa: E402

if settings.SERVE_STATIC:
    # One process serves everything on one machine; behind a proxy, let it serve
    # /static/ from `collectstatic` and set DJANGO_SERVE_STATIC=0.
    django_application = ASGIStaticFilesHandler(django_application)

mcp_application = MCPApplication()

# Apps that serve WebSockets add their routes here. The BYOA wallet route is
# deliberately not wrapped in an Origin validator or a session middleware: its
# consumer refuses any Origin but the endpoint's own and never reads a cookie.
websocket_routes = [*byoa_websocket_urlpatterns]

application = ProtocolTypeRouter(
    {
        "http": URLRouter(
            [
                path(mcp_setting("PATH").lstrip("/"), mcp_application),
                re_path(r"", django_application),
            ]
        ),
        "websocket": URLRouter(websocket_routes),
        # Servers with a lifespan (uvicorn) start and stop the MCP session manager
        # there; daphne has none, and it starts on the first request instead.
        "lifespan": mcp_application,
    }
)
