"""
The relay token: a value per browser, which the base template hands to the
stand-in scripts of this browser's pages and the relay asks for in a header. A
page of another site cannot read it; another browser has another one.

It is an HMAC of the browser's CSRF secret (its csrftoken cookie) under the
site's secret key, so nothing is stored for it: a page view with the stand-ins
on stores no session (DESIGN.md, "Security rules").
"""

import secrets

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.crypto import salted_hmac

#: The header that carries it.
HEADER = "X-Testwallet-Token"
_SALT = "testwallet.relay.token"  # the module's own name: no other HMAC of the secret shares it


def _token_for(csrf_secret: str) -> str:
    return salted_hmac(_SALT, csrf_secret, algorithm="sha256").hexdigest()


async def session_token(request: HttpRequest) -> str:
    """Return this browser's relay token (its CSRF cookie is set with the page if it had none)."""
    get_token(request)  # Django keeps the browser's CSRF secret in META["CSRF_COOKIE"]
    return _token_for(request.META["CSRF_COOKIE"])


async def carries_session_token(request: HttpRequest) -> bool:
    """Whether the request carries its browser's relay token."""
    # Django's CsrfViewMiddleware keeps the browser's secret there as a str (absent: no CSRF cookie).
    csrf_secret: str | None = request.META.get("CSRF_COOKIE")
    if not csrf_secret:
        return False
    given = request.headers.get(HEADER, "")
    return secrets.compare_digest(given.encode(), _token_for(csrf_secret).encode())
