"""
The wallet's WebSocket routes, for the project's ASGI router::

    URLRouter([*websocket_routes(), ...])

Not wrapped in ``AllowedHostsOriginValidator`` (a desktop wallet sends no
Origin) nor in session middleware (the wallet authenticates by its hello): the
consumer refuses an Origin that is not the endpoint's own.
"""

import re

from channels.security.websocket import WebsocketDenier
from django.urls import URLPattern, re_path

from byoa.checks import fail_on_errors
from byoa.conf import byoa_setting
from byoa.consumers import WalletConsumer
from byoa.pairing.route_ids import ROUTE_ID_PATTERN

__all__ = ["websocket_routes"]


def websocket_routes() -> list[URLPattern]:
    """Return the routes of ``BYOA["WS_PATH"]`` and ``WS_PATH/<route id>``; refuse a misconfigured BYOA.

    Any other path under the prefix is refused at the handshake (HTTP 403), not
    left to the router, which would log "No route found".
    """
    fail_on_errors()  # daphne runs no system checks: refuse to serve with a broken manifest
    prefix = re.escape(byoa_setting("WS_PATH").strip("/"))
    # channels routes an ASGI application with Django's re_path(); django-stubs types it for views only.
    return [
        re_path(rf"^{prefix}(?:/(?P<route_id>{ROUTE_ID_PATTERN}))?$", WalletConsumer.as_asgi()),  # type: ignore[arg-type]
        re_path(rf"^{prefix}/", WebsocketDenier.as_asgi()),  # type: ignore[arg-type]
    ]
