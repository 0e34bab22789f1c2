"""
System checks of the Twenty Questions demo, run by ``manage.py check``.

    twentyq.W001  the session backend keeps sessions in a signed cookie
"""

from django.conf import settings
from django.core import checks

SIGNED_COOKIES = "django.contrib.sessions.backends.signed_cookies"


@checks.register("twentyq")
def check_session_engine(app_configs, **kwargs):
    """Warn when sessions live in a cookie, which a streamed move cannot change after its headers."""
    if getattr(settings, "SESSION_ENGINE", "") != SIGNED_COOKIES:
        return []
    return [
        checks.Warning(
            "Twenty Questions keeps the game in the session, and a move over the direct link is "
            "recorded after the response's headers are sent; a signed-cookie session cannot change then.",
            hint="Use a server-side session backend (db, cache or file) to play over the direct link.",
            id="twentyq.W001",
        )
    ]
