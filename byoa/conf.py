"""The ``BYOA`` settings namespace, read when used, never at import."""

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from byoa.protocol import MAX_FRAME_BYTES

DEFAULTS = {
    # Manifests besides the ``manifest.json`` found beside each installed app's
    # code: {"name": "path/to/manifest.json"}. The name is what a page asks for.
    "MANIFESTS": {},
    # The manifest used when a page asks for none and several are installed.
    "DEFAULT_MANIFEST": None,
    # The WebSocket URL put into links, e.g. "wss://game.example.org/byoa/ws".
    # None: built from the request (wss://<host>/byoa/ws; ws:// only for a page
    # served over plain HTTP from localhost, i.e. development). Either way it
    # must pass the wallet's host rules (byoa.endpoints; loopback only with
    # DEBUG on), or no link is built: check byoa.E003, POST /byoa/code a 500.
    "ENDPOINT": None,
    # The path of the wallet route, used when ENDPOINT is None.
    "WS_PATH": "/byoa/ws",
    # How long a session code is valid, in seconds (the spec says 120).
    "CODE_SECONDS": 120,
    # Codes one client address / one browser session may ask for per window.
    "CODES_PER_ADDRESS": 20,
    "CODES_PER_SESSION": 6,
    "RATE_WINDOW_SECONDS": 60,
    # A wallet that says nothing valid within this many seconds is closed.
    "HELLO_SECONDS": 10,
    # The largest text frame accepted, in bytes (the spec: up to 4 MB). Daphne
    # enforces its own limit first: configure it to the same value.
    "MAX_FRAME_BYTES": MAX_FRAME_BYTES,
    # The default timeout of call_wallet, in seconds.
    "CALL_SECONDS": 20,
    # Calls in flight per connection when the grant sets no maxParallelCalls.
    "PARALLEL_CALLS": 4,
    # Results for call ids that are not in flight tolerated before closing.
    "UNSOLICITED_RESULTS": 16,
    # A connection held by another process counts as live while it was seen
    # (hello or ping) this recently; wallets ping every 30 s.
    "LIVE_SECONDS": 180,
    # How often each server process renews its record in the database
    # (byoa.processes), and how old a record may be before the process counts
    # as gone: its wallets are then away and its pairings detached.
    "BEAT_SECONDS": 5,
    "STALE_SECONDS": 15,
    # A call sent to a connection in another process is acknowledged by that
    # process at once; a caller that hears nothing this long gives up (None).
    "ACCEPT_SECONDS": 2,
    # How often wallets ping (the spec: every 30 s). A connection that sends
    # no frame for one and a half times this long is closed as silent, and its
    # calls resolve None.
    "PING_SECONDS": 30,
    # Keep a receipt row (skill, ok, duration, cost, provider) per call.
    "CALL_LOG": True,
}


# The values in force, read at first use. A call reads several settings, and
# each read through django.conf.settings costs as much as the rest of a line
# of the call path; override_settings (and pytest-django's settings fixture)
# announce a change, which clears this.
_values = {}


def byoa_setting(name):
    """Return the value of BYOA[name], or its documented default."""
    try:
        return _values[name]
    except KeyError:
        overrides = getattr(settings, "BYOA", {}) or {}
        value = _values[name] = overrides.get(name, DEFAULTS[name])
        return value


@receiver(setting_changed)
def _forget_values(*, setting, **kwargs):
    if setting == "BYOA":
        _values.clear()
