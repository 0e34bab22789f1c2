"""daphne's app as this project installs it: for `manage.py runserver` alone."""

from django.apps import AppConfig


class DaphneRunserverConfig(AppConfig):
    """daphne's app without daphne's own app config, which imports its Twisted server at start-up.

    The app is installed for one thing: Django finds management commands by app name, so
    `manage.py runserver` is daphne's (WebSockets included) rather than staticfiles' while
    this app comes first in INSTALLED_APPS. daphne's own config (``daphne.apps.DaphneConfig``)
    also imports ``daphne.server`` to install Twisted's reactor early, and with it Twisted,
    autobahn and pyOpenSSL: 0.3 s of CPU in every process that sets Django up (a uvicorn
    worker, a migrate, each test's server and probe), where ``django.setup()`` alone takes
    0.35 s. Here daphne's runserver imports its server when it is run, and nothing in this
    project imports Twisted's reactor before it. daphne's config also registers the check that
    the app comes before staticfiles (daphne.E001); tests/test_settings.py checks that instead.
    """

    name = "daphne"
    label = "daphne"
    verbose_name = "Daphne (runserver)"
