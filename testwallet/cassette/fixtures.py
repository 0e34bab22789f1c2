"""
The cassette in pytest (registered by ``testwallet.plugin``): the ``--testwallet-cassette`` and
``--testwallet-record`` options, the ``testwallet_cassette`` marker and the
``testwallet_cassette`` fixture, the test's ``testwallet.cassette.Cassette``.

What each sets and when: docs/explanation/testwallet.md and docs/howto/recorded-answers.md.
"""

import os
from pathlib import Path

import pytest

from testwallet.cassette import Cassette, CassetteError, Mode

MARKER = "testwallet_cassette"


def add_options(parser: pytest.Parser) -> None:
    """Add the cassette's command-line options."""
    group = parser.getgroup("testwallet")
    group.addoption(
        "--testwallet-cassette", default=None, help="the cassette of recorded answers (TESTWALLET_CASSETTE)"
    )
    group.addoption(
        "--testwallet-record",
        default=None,
        choices=[mode.value for mode in Mode],
        help="all: record anew, new: record what is missing, none: replay only (TESTWALLET_RECORD)",
    )


def configure(config: pytest.Config) -> None:
    """Hand the options to the session's servers and wallets, through the environment they read."""
    config.addinivalue_line(
        "markers", f"{MARKER}(path, record=None, pacing=None): the cassette of this test's recorded answers"
    )
    for option, variable in (
        ("testwallet_cassette", "TESTWALLET_CASSETTE"),
        ("testwallet_record", "TESTWALLET_RECORD"),
    ):
        value = config.getoption(option, None)
        if value:
            os.environ[variable] = str(Path(value).resolve()) if variable == "TESTWALLET_CASSETTE" else value


@pytest.fixture
def testwallet_cassette(request: pytest.FixtureRequest) -> Cassette:
    """Return the test's cassette: its marker's file and mode, else the session's."""
    marker = request.node.get_closest_marker(MARKER)
    path = marker.args[0] if marker and marker.args else os.environ.get("TESTWALLET_CASSETTE")
    if not path:
        # An error, not a skip: a suite that forgot to name its cassette would otherwise go green untested.
        raise pytest.fail.Exception(
            f"this test asks for recorded answers but names no cassette: mark it @pytest.mark.{MARKER}(path) "
            "or pass --testwallet-cassette FILE",
            pytrace=False,
        )
    record = (marker.kwargs.get("record") if marker else None) or os.environ.get("TESTWALLET_RECORD")
    pacing = marker.kwargs.get("pacing") if marker else None
    if pacing is None:
        pacing = os.environ.get("TESTWALLET_PACING", "") not in ("", "0")
    try:
        return Cassette(Path(request.path.parent, path), Mode.named(record), pacing=bool(pacing))
    except CassetteError as error:
        raise pytest.fail.Exception(error.message, pytrace=False) from None
