"""
System checks for the BYOA settings and manifests, run by ``manage.py check``, by ``runserver``
and ``migrate``, and at start-up of the wallet route (daphne runs no checks of its own). Each
id and what it means: docs/reference/checks.md. The checks of the settings' values (E001, E002,
E005) are generated from their declaration, ``byoa.conf.SETTINGS``: a new setting is checked as
soon as it is declared.
"""

import re

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from byoa.conf import DEFAULTS, SETTINGS, Setting, byoa_setting
from byoa.pairing import manifests
from byoa.wire import endpoints

TAG = "byoa"

_MANIFEST_IDS = {
    "file-unreadable": "byoa.E010",
    "not-json": "byoa.E010",
    "extension-invalid": "byoa.E012",
    "manifest-too-large": "byoa.E013",
    "link-parameter-large": "byoa.W011",
}


@checks.register(TAG)
def check_settings(app_configs: object, **kwargs: object) -> list[checks.CheckMessage]:
    """Report BYOA keys and values that cannot work."""
    from django.conf import settings

    errors: list[checks.CheckMessage] = []
    for key in sorted(set(getattr(settings, "BYOA", None) or {}) - set(DEFAULTS)):
        errors.append(
            checks.Error(
                f"BYOA has an unknown key {key!r}.",
                hint="The keys are: " + ", ".join(sorted(DEFAULTS)) + ".",
                id="byoa.E001",
            )
        )
    for setting in SETTINGS:
        error = _value_error(setting, byoa_setting(setting.name))
        if error is not None:
            errors.append(error)
    endpoint = byoa_setting("ENDPOINT")
    # The wallet's own rules: it refuses every link to another endpoint in silence.
    reason = endpoints.problem(endpoint, dev_local=settings.DEBUG) if endpoint is not None else ""
    if reason:
        errors.append(
            checks.Error(
                f"BYOA['ENDPOINT'] is {endpoint!r}, which an agent wallet refuses: {reason}.",
                hint="Use the wss:// URL of the wallet route on the site's public DNS name, e.g. "
                "'wss://game.example.org/byoa/ws' (no IP address, localhost, .local, .home.arpa, "
                ".internal, .lan or single-label name), or None to build it from each request. "
                "ws:// to localhost, 127.0.0.1 or [::1] is allowed only with DEBUG on, for local tests "
                "(the wallet needs BYOA_WALLET_DEV_LOCAL=1).",
                id="byoa.E003",
            )
        )
    errors.extend(_route_cookie_errors(settings))
    return errors


def _route_cookie_errors(settings: object) -> list[checks.CheckMessage]:
    name = byoa_setting("ROUTE_COOKIE")
    if not isinstance(name, str):
        return []  # E005 reports it
    taken = {getattr(settings, "SESSION_COOKIE_NAME", ""), getattr(settings, "CSRF_COOKIE_NAME", "")}
    if re.fullmatch(r"[A-Za-z0-9_]+", name) and name not in taken:
        return []
    return [
        checks.Error(
            f"BYOA['ROUTE_COOKIE'] is {name!r}, which cannot be the route id's cookie.",
            hint="Use letters, digits and _ only (nginx reads it as $cookie_<name>: put the same name in "
            "deploy/nginx.conf.template), and not the session's or CSRF's cookie name; "
            f"the default is {DEFAULTS['ROUTE_COOKIE']!r}.",
            id="byoa.E006",
        )
    ]


def _value_error(setting: Setting, value: object) -> checks.Error | None:
    """Return the error of a value its declaration does not allow, or None."""
    name = setting.name
    if setting.above is not None:  # a number setting (Setting.is_number)
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if number is None or not isinstance(value, setting.types) or not number > setting.above:
            bound = "a positive number" if setting.above == 0 else f"a number above {setting.above}"
            return checks.Error(f"BYOA[{name!r}] must be {bound}; it is {value!r}.", id="byoa.E002")
        return None
    if setting.checked_elsewhere or isinstance(value, setting.types):
        return None
    expected = " or ".join("None" if kind is type(None) else kind.__name__ for kind in setting.types)
    return checks.Error(
        f"BYOA[{name!r}] must be {expected}; it is {value!r} ({type(value).__name__}).",
        hint=f"BYOA[{name!r}] is {setting.doc}; its default is {setting.shown_default}.",
        id="byoa.E005",
    )


@checks.register(TAG)
def check_manifests(app_configs: object, **kwargs: object) -> list[checks.CheckMessage]:
    """Report every problem of every declared manifest, with its JSON Pointer and fix."""
    messages: list[checks.CheckMessage] = []
    table = manifests.loaded()
    for name, (_manifest, problems) in table.items():
        path = manifests.declared().get(name)
        for problem in problems:
            default_id = "byoa.E011" if problem.is_error else "byoa.W010"
            kind = checks.Error if problem.is_error else checks.Warning
            where = f"at {problem.pointer}" if problem.pointer else "as a whole"
            messages.append(
                kind(
                    f"BYOA manifest {name!r} ({path}) {where}: {problem.message} [{problem.code}]",
                    hint=problem.fix or None,
                    obj=name,
                    id=_MANIFEST_IDS.get(problem.code, default_id),
                )
            )
    default = byoa_setting("DEFAULT_MANIFEST")
    if default is not None and default not in table:
        messages.append(
            checks.Error(
                f"BYOA['DEFAULT_MANIFEST'] is {default!r}, but no manifest has that name.",
                hint="The manifests are: " + (", ".join(sorted(table)) or "none") + ".",
                id="byoa.E004",
            )
        )
    return messages


def fail_on_errors() -> None:
    """Raise ImproperlyConfigured when a BYOA check reports an error (for servers that run no checks)."""
    found = [m for m in check_settings(None) + check_manifests(None) if m.is_serious()]
    if found:
        raise ImproperlyConfigured("BYOA is misconfigured:\n" + "\n".join(str(m) for m in found))
