"""
Recorded answers: a real model's answers recorded once into a cassette, replayed
in CI (``TESTWALLET_CASSETTE=<file>``, ``TESTWALLET_RECORD=all|new|none``,
``TESTWALLET_PACING=1``). The format is docs/reference/cassette.md; ``format``
reads and writes it, ``player`` decides what answers, ``matching`` says how a
request differs from the nearest recorded one.
"""

from testwallet.cassette.exceptions import CassetteError, CassetteUnreadable, NotRecorded
from testwallet.cassette.format import FORMAT
from testwallet.cassette.player import Cassette, Mode

__all__ = ["FORMAT", "Cassette", "CassetteError", "CassetteUnreadable", "Mode", "NotRecorded"]
