"""
What the ``daphne_server`` fixture checks before it runs anything: which ASGI
application it serves, and that the server and its set-up commands will use
the fixture's own database, never the developer's. A refusal is a
:class:`Misconfigured` whose message says which setting or ini option to add.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from testwallet.server import DaphneServer

__all__ = ["Misconfigured", "asgi_application", "check_own_database"]

# Run in the server's environment; writes the default database's NAME to argv[1].
_PROBE = (
    "import json, sys\n"
    "from django.conf import settings\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    json.dump(str(settings.DATABASES.get('default', {}).get('NAME', '')), out)\n"
)


_NO_SETTINGS = (
    "daphne_server needs your settings module: set DJANGO_SETTINGS_MODULE in pytest's ini options "
    "(pytest-django), e.g. DJANGO_SETTINGS_MODULE = mysite.settings"
)


class Misconfigured(Exception):
    """Raised when the fixture cannot serve the site as configured; the message says what to add."""


def _project_name(settings_module: str | None) -> str:
    """Return the package of ``mysite.settings`` ("mysite"), for the examples in messages."""
    return (settings_module or "mysite.settings").rpartition(".")[0] or "mysite"


def asgi_application(config: pytest.Config, settings_module: str | None) -> str:
    """Return ``module:attribute`` to serve: ini option ``daphne_application``, else ``ASGI_APPLICATION``."""
    project = _project_name(settings_module)
    configured: str = config.getini("daphne_application")
    source = "the ini option daphne_application"
    if not configured:
        from django.conf import settings

        if not settings_module:
            raise Misconfigured(_NO_SETTINGS)
        dotted: str | None = getattr(settings, "ASGI_APPLICATION", None)
        if not dotted:
            raise Misconfigured(
                "daphne_server does not know your ASGI application. Name it in your settings:\n"
                f'    ASGI_APPLICATION = "{project}.asgi.application"\n'
                "or in pytest's ini options ([tool.pytest.ini_options] or [pytest]):\n"
                f'    daphne_application = "{project}.asgi:application"'
            )
        module, _, attribute = dotted.rpartition(".")
        configured, source = f"{module}:{attribute}", f"ASGI_APPLICATION ({dotted!r})"
    module, colon, attribute = configured.partition(":")
    if not (module and colon and attribute):
        raise Misconfigured(
            f"daphne_server cannot use {source}: {configured!r} is not module:attribute, "
            f'e.g. "{project}.asgi:application".'
        )
    try:
        found = importlib.util.find_spec(module)
    except ImportError:
        found = None
    if found is None:
        raise Misconfigured(f"daphne_server cannot use {source}: there is no module {module!r} to import.")
    return configured


def check_own_database(server: "DaphneServer") -> None:
    """Raise :class:`Misconfigured` unless the settings, in ``server``'s environment, use its SQLite file."""
    if not server.settings_module:
        raise Misconfigured(_NO_SETTINGS)
    answer = server.workdir / "database-name.json"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(answer)],
        env=server.environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise Misconfigured(
            f"daphne_server could not read your settings ({server.settings_module}):\n{done.stderr}"
        )
    name: str = json.loads(answer.read_text())
    if name and Path(name).resolve() == server.database.resolve():
        return
    raise Misconfigured(
        f"daphne_server would run your site against the database {name!r}, not its own SQLite file: "
        f"{server.settings_module} does not read DATABASE_URL, which is how the fixture gives the server "
        "and daphne_setup_commands their database. Nothing was run. Read it in your settings, e.g.:\n"
        "    import dj_database_url\n"
        '    DATABASES = {"default": '
        "dj_database_url.config(default=f\"sqlite:///{BASE_DIR / 'db.sqlite3'}\")}"
    )
