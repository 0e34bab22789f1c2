"""
The ``BYOA`` settings namespace: each setting declared once, read when used, never at import.

``SETTINGS`` is the one declaration of every key (name, type, lower bound,
default, one line of doc). The system checks are generated from it
(``byoa.checks``: an unknown key is E001, a number out of bounds E002, a value
of the wrong type E005), and so is the table of the ``BYOA`` keys on the docs'
settings page (``docs/reference/settings.md``, its ``byoa-settings`` directive):
a new setting declared here gets its check and its row, and nothing else must be
kept in step.

The values in force are cached by ``Settings``, which the ``byoa`` app owns
(``ByoaConfig.settings``) and clears when Django announces a change of
``BYOA`` (``override_settings``, pytest-django's ``settings`` fixture). A call
reads several settings, and each read through ``django.conf.settings`` costs
about a microsecond (five when the project sets no ``BYOA`` at all: the
lookup raises), as much as the rest of a line of the call path.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from django.apps import apps
from django.conf import settings

from byoa.protocol import MAX_FRAME_BYTES

if TYPE_CHECKING:
    from byoa.apps import ByoaConfig

__all__ = ["DEFAULTS", "SETTINGS", "Setting", "Settings", "byoa_setting"]


@dataclass(frozen=True, slots=True)
class Setting:
    """One key of ``BYOA``: what it holds, its default, and what it means."""

    name: str
    default: Any
    doc: str
    #: The types a value may have; a number setting is checked against ``above`` too.
    types: tuple[type, ...]
    #: A number must be greater than this (None: not a number setting).
    above: float | None = None
    #: Another check owns the value's rules (byoa.E003, byoa.E004): no type check here.
    checked_elsewhere: bool = False

    @property
    def is_number(self) -> bool:
        return self.above is not None

    @property
    def shown_default(self) -> str:
        """Return the default as the settings page's table writes it (``{}``, ``None``, ``"/byoa/ws"``, ``20``)."""
        if isinstance(self.default, Mapping):
            return repr(dict(self.default))
        if isinstance(self.default, str):
            return f'"{self.default}"'
        return repr(self.default)


def _number(name: str, default: float, doc: str) -> Setting:
    return Setting(name, default, doc, (int, float), above=0)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "MANIFESTS",
        MappingProxyType({}),
        'manifests besides each app\'s `manifest.json`: `{"name": "path/to/manifest.json"}`',
        (Mapping,),
    ),
    Setting(
        "DEFAULT_MANIFEST",
        None,
        "the manifest a page gets when it names none and several are installed",
        (str, type(None)),
        checked_elsewhere=True,
    ),
    # Either way the endpoint must pass the wallet's host rules (byoa.endpoints;
    # loopback only with DEBUG on), or no link is built: check byoa.E003, POST /byoa/code a 500.
    Setting(
        "ENDPOINT",
        None,
        "the WebSocket URL put into links, the browser's route id appended as its last segment; "
        "`None`: `wss://<host>` + `WS_PATH` from the request",
        (str, type(None)),
        checked_elsewhere=True,
    ),
    Setting("WS_PATH", "/byoa/ws", "the wallet route's path, used when `ENDPOINT` is `None`", (str,)),
    # byoa.routes: the proxy's hash key for the page's requests (deploy/nginx.conf.template names it).
    Setting(
        "ROUTE_COOKIE",
        "byoa_route",
        "the cookie of the browser's route id, which the link's endpoint carries too (sticky routing)",
        (str,),
    ),
    _number("CODE_SECONDS", 120, "how long a session code is valid"),  # the spec says 120
    _number("CODES_PER_ADDRESS", 20, "codes one client address may ask for per `RATE_WINDOW_SECONDS`"),
    _number("CODES_PER_SESSION", 6, "codes one browser session may ask for per `RATE_WINDOW_SECONDS`"),
    _number("RATE_WINDOW_SECONDS", 60, "the window of the two code limits"),
    _number("HELLO_SECONDS", 10, "a wallet that says nothing valid this long is closed"),
    # The spec: up to 4 MB. Daphne enforces its own limit first.
    _number(
        "MAX_FRAME_BYTES",
        MAX_FRAME_BYTES,
        "the largest text frame accepted (configure daphne or uvicorn to the same)",
    ),
    _number("CALL_SECONDS", 20, "the default timeout of `call_wallet`"),
    _number("PARALLEL_CALLS", 4, "calls in flight per connection when the grant sets no `maxParallelCalls`"),
    _number("UNSOLICITED_RESULTS", 16, "results for calls not in flight tolerated before closing"),
    # Wallets ping every 30 s, and a ping is recorded at least every minute.
    _number(
        "LIVE_SECONDS", 180, "a connection held by another process counts as live while seen this recently"
    ),
    _number("BEAT_SECONDS", 5, "how often each server process renews its liveness record in the database"),
    _number(
        "STALE_SECONDS",
        15,
        "a process whose record is older counts as gone: its wallets are away, its pairings detached",
    ),
    _number(
        "ACCEPT_SECONDS",
        2,
        "a call sent to another process that is not acknowledged this soon raises `WalletProcessGone`, "
        "and that process counts as gone until it beats again",
    ),
    _number(
        "ADDRESS_SECONDS",
        2,
        "the address of a wallet in another process, read from the database, is used again this long "
        "(byoa.addresses: a stale one fails fast and is read again)",
    ),
    _number(
        "PING_SECONDS",
        30,
        "the wallets' ping interval; a connection silent for 1.5 times this is closed, its calls `None`",
    ),
    Setting(
        "CALL_LOG",
        True,
        "keep a receipt (skill, ok, duration, cost, provider) per call, never content",
        (bool,),
    ),
)

#: {name: default} of every setting, read-only.
DEFAULTS = MappingProxyType({setting.name: setting.default for setting in SETTINGS})


def configured() -> dict[str, Any]:
    """Return the project's ``BYOA`` dict as it is now (empty when it sets none)."""
    return getattr(settings, "BYOA", None) or {}


def read(name: str) -> Any:
    """Return BYOA[name] or its default, read from the settings now (no cache)."""
    return configured().get(name, DEFAULTS[name])


class Settings(dict[str, Any]):
    """The ``BYOA`` values in force, each read at its first use; ``clear()`` after a change."""

    def __missing__(self, name: str) -> Any:
        value = self[name] = read(name)
        return value

    def forget(self, *, setting: str, **kwargs: object) -> None:
        """Called when a setting changes (Django's ``setting_changed``): drop the values of ``BYOA``."""
        if setting == "BYOA":
            self.clear()


def byoa_setting(name: str) -> Any:
    """Return the value of BYOA[name], or its documented default."""
    # Any: each key has its own type (its Setting's ``types``), checked by byoa.checks at start-up.
    try:
        # The registry's own table, not apps.get_app_config(): that costs as much
        # as the read it saves (it checks the registry's state each time).
        values = cast("ByoaConfig", apps.app_configs["byoa"]).settings
    except (KeyError, AttributeError):  # byoa not installed, or its ready() has not run yet
        return read(name)
    return values[name]
