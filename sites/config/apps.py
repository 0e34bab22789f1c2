"""daphne's app as this project installs it: for `manage.py runserver` alone."""

from typing import Any

from django.apps import AppConfig, apps
from django.core import checks


class DaphneRunserverConfig(AppConfig):
    """daphne's app without daphne's own app config, which imports its Twisted server at start-up.

    The app is installed for one thing: Django finds management commands by app name, so
    `manage.py runserver` is daphne's (WebSockets included) rather than staticfiles' while
    this app comes first in INSTALLED_APPS. daphne's own config (``daphne.apps.DaphneConfig``)
    also imports ``daphne.server`` to install Twisted's reactor early, and with it Twisted,
    autobahn and pyOpenSSL: 0.3 s of CPU added to ``django.setup()``'s 0.35 s (0.5 s to a
    ``migrate``) in every process that sets Django up without serving with daphne: a uvicorn
    worker, each management command, each test's set-up and probe. Here daphne's runserver
    imports its server when Django loads the command, after setting up; nothing in this project
    imports Twisted before that. daphne's config also registers its check that the app comes
    before staticfiles (daphne.E001); ``runserver_is_daphnes`` below is that check for this config.
    """

    name = "daphne"
    label = "daphne"
    verbose_name = "Daphne (runserver)"

    def ready(self) -> None:
        checks.register(runserver_is_daphnes, checks.Tags.staticfiles)


def runserver_is_daphnes(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """config.E001: daphne's app comes before staticfiles, whose runserver would win otherwise."""
    for config in apps.get_app_configs():
        if isinstance(config, DaphneRunserverConfig):
            return []
        if config.name == "django.contrib.staticfiles":
            break
    return [
        checks.Error(
            "daphne's app must come before django.contrib.staticfiles in INSTALLED_APPS, "
            "or `runserver` is staticfiles' (no WebSockets).",
            hint="Put 'sites.config.apps.DaphneRunserverConfig' first in INSTALLED_APPS.",
            id="config.E001",
        )
    ]
