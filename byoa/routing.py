"""
The WebSocket routes of the wallet, for the project's ASGI router::

    from byoa.routing import websocket_urlpatterns

``BYOA["WS_PATH"]`` (``/byoa/ws``) and ``/byoa/ws/<route id>``: links carry
the route id as the endpoint's last segment (``byoa.routes``), which the proxy
hashes to pick the process; the plain path stays for links made before, and
for wallets coming back to such an endpoint. The consumer ignores the segment:
a wallet authenticates by its hello alone. Any other path under the prefix
(a segment of another shape, a further segment, a trailing slash) is refused
before the handshake completes (HTTP 403, channels' ``WebsocketDenier``), not
left to the router, which would raise "No route found" into the server's log.

It must not be wrapped in ``AllowedHostsOriginValidator`` (a desktop wallet
sends no Origin, which that validator refuses) nor in a session or auth
middleware (the wallet authenticates by its hello, never by a cookie). The
consumer itself refuses a request whose Origin is not the endpoint's own.
"""

import re

from channels.security.websocket import WebsocketDenier
from django.urls import re_path

from byoa.checks import fail_on_errors
from byoa.conf import byoa_setting
from byoa.consumers import WalletConsumer
from byoa.routes import ROUTE_ID_PATTERN

# Daphne runs no system checks: refuse to serve with a broken manifest.
fail_on_errors()

_PREFIX = re.escape(byoa_setting("WS_PATH").strip("/"))

websocket_urlpatterns = [
    # channels routes an ASGI application with Django's re_path(); django-stubs types it for views only.
    re_path(rf"^{_PREFIX}(?:/(?P<route_id>{ROUTE_ID_PATTERN}))?$", WalletConsumer.as_asgi()),  # type: ignore[arg-type]
    re_path(rf"^{_PREFIX}/", WebsocketDenier.as_asgi()),  # type: ignore[arg-type]
]
