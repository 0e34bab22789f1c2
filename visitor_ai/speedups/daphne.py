"""
daphne's app for ``manage.py runserver`` alone: a speed-up turned on by its
import path, in place of ``"daphne"`` first in ``INSTALLED_APPS``::

    INSTALLED_APPS = [
        "visitor_ai.speedups.daphne.DaphneRunserverConfig",  # rather than "daphne"
        "django.contrib.admin",
        ...
    ]

Django finds management commands by app name, so with either entry first
``runserver`` is daphne's (WebSockets included) rather than staticfiles'.
daphne's own config (``daphne.apps.DaphneConfig``) also imports
``daphne.server`` to install Twisted's reactor early, and with it Twisted,
autobahn and pyOpenSSL, in every process that sets Django up: a uvicorn
worker, each management command, each test's set-up. With this config
daphne's ``runserver`` imports its server itself when Django loads the
command, and no other process imports Twisted. That is how daphne 4.2 writes
its command; on a daphne it was not verified on, this config imports the
server as daphne's own does, and ``speedups.W001`` says so.
"""

from typing import Any

from django.apps import AppConfig, apps
from django.core import checks

from visitor_ai.speedups import unverified_versions

__all__ = ["VERIFIED", "DaphneRunserverConfig", "check_runserver"]

#: The daphne versions whose runserver imports its own server.
VERIFIED = {"daphne": ("4.2",)}


class DaphneRunserverConfig(AppConfig):
    """daphne's app without daphne's own app config's import of its Twisted server at start-up."""

    name = "daphne"
    label = "daphne"
    verbose_name = "Daphne (runserver)"

    def ready(self) -> None:
        if unverified_versions(VERIFIED):
            import daphne.server  # type: ignore[import-untyped]  # noqa: F401  # as daphne's own config does
        checks.register(check_runserver, checks.Tags.staticfiles)


def check_runserver(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """speedups.E003: daphne's app comes before staticfiles; speedups.W001: on a verified daphne."""
    messages: list[checks.CheckMessage] = []
    versions = unverified_versions(VERIFIED)
    if versions:
        messages.append(
            checks.Warning(
                f"DaphneRunserverConfig was verified on daphne {' / '.join(VERIFIED['daphne'])}, "
                f"and this site runs {', '.join(versions)}: daphne's server is imported at start-up, "
                "as daphne's own config does.",
                hint="Put 'daphne' in INSTALLED_APPS in its place to silence this.",
                id="speedups.W001",
            )
        )
    for config in apps.get_app_configs():
        if isinstance(config, DaphneRunserverConfig):
            return messages
        if config.name == "django.contrib.staticfiles":
            break
    messages.append(
        checks.Error(
            "daphne's app must come before django.contrib.staticfiles in INSTALLED_APPS, "
            "or `runserver` is staticfiles' (no WebSockets).",
            hint="Put 'visitor_ai.speedups.daphne.DaphneRunserverConfig' first in INSTALLED_APPS.",
            id="speedups.E003",
        )
    )
    return messages
