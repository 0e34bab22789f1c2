"""
The WebSocket route of the wallet, for the project's ASGI router::

    from byoa.routing import websocket_urlpatterns

It must not be wrapped in ``AllowedHostsOriginValidator`` (a desktop wallet
sends no Origin, which that validator refuses) nor in a session or auth
middleware (the wallet authenticates by its hello, never by a cookie). The
consumer itself refuses a request whose Origin is not the endpoint's own.
"""

from django.urls import path

from byoa.checks import fail_on_errors
from byoa.conf import byoa_setting
from byoa.consumers import WalletConsumer

# Daphne runs no system checks: refuse to serve with a broken manifest.
fail_on_errors()

websocket_urlpatterns = [
    # channels routes an ASGI application with Django's path(); django-stubs types path() for views only.
    path(byoa_setting("WS_PATH").lstrip("/"), WalletConsumer.as_asgi()),  # type: ignore[arg-type]
]
