"""scripts/matrix.py refuses what is not a row before it makes anything, and says how it is used."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def matrix(*args):
    return subprocess.run(
        [sys.executable, ROOT / "scripts" / "matrix.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_option_given_before_the_double_dash_is_refused_as_a_row_and_makes_no_venv():
    done = matrix("--verbose", "--", "-q")
    assert done.returncode == 1
    assert "a row is PYTHON-DJANGO-CHANNELS (e.g. 3.12-5.2-4.2), not '--verbose'" in done.stderr
    assert not (ROOT / ".matrix" / "--verbose").exists()


def test_a_row_with_a_word_for_a_version_is_refused():
    done = matrix("3.12-five-4.2")
    assert done.returncode == 1 and "not '3.12-five-4.2'" in done.stderr


def test_help_names_the_usage_and_every_row():
    done = matrix("--help")
    assert done.returncode == 0
    assert "python scripts/matrix.py [ROW ...] [-- PYTEST ARGS]" in done.stdout
    assert "rows: 3.12-5.2-4.2 3.13-5.2-new" in done.stdout
