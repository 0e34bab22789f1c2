"""
The ``BYOA`` settings namespace: each key declared once in ``SETTINGS`` (name,
default, types, one line of doc), read when used, never at import. The system
checks (``byoa.checks``) and the docs' settings table are generated from it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.conf import settings

from byoa.wire.protocol import MAX_FRAME_BYTES

__all__ = ["DEFAULTS", "SETTINGS", "Setting", "byoa_setting"]


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
    # Either way the endpoint must pass the wallet's host rules (byoa.wire.endpoints;
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
    # byoa.pairing.route_ids: the proxy's hash key for the page's requests (deploy/nginx.conf.template names it).
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
    Setting(
        "PAIRING_SECONDS",
        5,
        "how long a process keeps what it read of a pairing: the one a browser session reaches (`aget_pairing`), "
        "and the channel of its wallet's connection in another process, unless that connection moves; 0: never",
        (int, float),
    ),
    _number("PARALLEL_CALLS", 4, "calls in flight per connection when the grant sets no `maxParallelCalls`"),
    _number("UNSOLICITED_RESULTS", 16, "results for calls not in flight tolerated before closing"),
    # Wallets ping every 30 s, and a ping is recorded at least every minute.
    _number(
        "LIVE_SECONDS", 180, "a connection held by another process counts as live while seen this recently"
    ),
    _number(
        "PING_SECONDS",
        30,
        "the wallets' ping interval; a connection silent for 1.5 times this is closed, its calls `WalletLeft`",
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


def byoa_setting(name: str) -> Any:
    """Return the value of BYOA[name], or its documented default."""
    # Any: each key has its own type (its Setting's ``types``), checked by byoa.checks at start-up.
    return (getattr(settings, "BYOA", None) or {}).get(name, DEFAULTS[name])
