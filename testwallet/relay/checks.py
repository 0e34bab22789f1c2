"""
System checks of the stand-ins' model relay, run by ``manage.py check``.

    testwallet.E001  settings.TESTWALLET has a value the relay cannot use
    testwallet.E002  a URL in settings.TESTWALLET carries a user name or password
    testwallet.E003  the cassette settings.TESTWALLET names cannot be replayed or written
"""

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from testwallet.cassette import Cassette, CassetteError, Mode
from testwallet.relay.conf import RelaySettings, has_credentials, relay_settings

#: The URL settings and the environment variables they come from in sites/config/settings.py.
URL_KEYS = {"MODEL_URL": "TESTWALLET_MODEL_URL", "TRANSCRIBE_URL": "TESTWALLET_TRANSCRIBE_URL"}


@checks.register("testwallet")
def check_relay_settings(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Report a TESTWALLET setting (TESTWALLET_MODEL_* variable) the relay cannot use."""
    try:
        conf = relay_settings()
    except ImproperlyConfigured as error:
        return [
            checks.Error(
                str(error),
                hint="Fix the TESTWALLET_MODEL_* environment variable (docs/howto/stand-ins.md), or unset it.",
                id="testwallet.E001",
            )
        ]
    given = getattr(settings, "TESTWALLET", {}) or {}
    return _cassette_errors(conf) + [
        checks.Error(
            # Not the URL itself: the message would repeat the password wherever checks are printed.
            f"TESTWALLET['{key}'] ({variable}) carries a user name or password before its host; "
            "the relay never sends them.",
            hint="Put the model server's key in TESTWALLET_MODEL_KEY (TESTWALLET['MODEL_KEY']), sent as a "
            "bearer token, and remove the user name and password from the URL.",
            id="testwallet.E002",
        )
        for key, variable in URL_KEYS.items()
        if isinstance(given.get(key), str) and has_credentials(given[key])
    ]


def _cassette_errors(conf: RelaySettings) -> list[checks.CheckMessage]:
    """Report a named cassette that replay cannot read or recording cannot write, before any request.

    Without this the first chat of a test run would be the first to hear of it, as a 500 on the page.
    """
    if not conf.cassette:
        return []
    path = Path(conf.cassette)
    problem = None
    try:
        Cassette(path, Mode.named(conf.record))  # reads the file whenever the mode replays from it
    except CassetteError as error:
        problem = error.message  # names the file, never an answer in it
    if problem is None and conf.record != "none" and not os.access(path.parent, os.W_OK):
        problem = (
            f"TESTWALLET_RECORD={conf.record} cannot write the cassette: its folder is missing or read-only "
            f"(cassette {path})"
        )
    if problem is None:
        return []
    return [
        checks.Error(
            problem,
            hint="Name a cassette that exists (TESTWALLET_CASSETTE), or record one "
            "(TESTWALLET_RECORD=all with TESTWALLET_MODEL_URL): docs/howto/recorded-answers.md.",
            id="testwallet.E003",
        )
    ]
