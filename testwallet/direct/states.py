"""
The headless wallet's two enumerations and its schedule of coming back: what the visitor chose
for a link (``Consent``), where the wallet is with it (``State``), and how long it waits before
each attempt to come back after a drop (``reconnect_delays``).
"""

import enum
from collections.abc import Iterator

RECONNECT_DELAYS = (1, 2, 5, 10)
RECONNECT_EVERY = 30


class Consent(str, enum.Enum):  # noqa: UP042 (StrEnum would change str(), which prints Consent.ALLOW)
    ALLOW = "allow"  # connect for this link; forget the pairing when it ends
    DECLINE = "decline"  # contact nothing: a decline looks like no wallet
    DECIDE_ON_MY_OWN = "decide-on-my-own"  # allow, keep the pairing, come back after a drop


class State(str, enum.Enum):  # noqa: UP042 (StrEnum would change str(), which prints State.IDLE)
    IDLE = "idle"  # no link handled yet
    CONNECTED = "connected"  # welcomed; answering calls
    AWAY = "away"  # the connection dropped; coming back (decide on my own)
    PAUSED = "paused"  # the visitor paused the site: no connection, and no coming back until resumed
    CLOSED = "closed"  # done: bye, refused, declined or dropped for good


def reconnect_delays() -> Iterator[float]:
    """Yield the seconds to wait before each attempt to come back: 1, 2, 5, 10, then 30 forever."""
    yield from RECONNECT_DELAYS
    while True:
        yield RECONNECT_EVERY
