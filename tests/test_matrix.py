"""scripts/matrix.py refuses what is not a row before it makes anything, says how it is used, and
gives each row a chosen set: its Django and Channels, and the lock's version of everything else."""

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


def test_a_row_whose_minor_has_no_chosen_release_is_refused_naming_where_to_choose_one():
    done = matrix("3.12-5.9-4.2")
    assert done.returncode == 1
    assert "no release of django 5.9 is chosen: add it to RELEASES in scripts/matrix.py" in done.stderr
    assert not (ROOT / ".matrix" / "3.12-5.9-4.2").exists()


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("matrix", ROOT / "scripts" / "matrix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def locked():
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    return {package["name"]: package["version"] for package in lock["package"] if "version" in package}


def test_the_lts_row_pins_its_own_django_and_channels_and_the_locks_version_of_every_other_package(script):
    pins = script.row_pins("5.2", "4.2")
    assert pins[:2] == [f"django=={script.RELEASES['django']['5.2']}", "channels==4.2.2"]
    versions = {line.split("==")[0]: line.split("==")[1].split(" ;")[0] for line in pins[2:]}
    lock = locked()
    assert {"pytest", "redis", "cryptography", "pip"} <= versions.keys()
    assert [name for name, version in versions.items() if lock[name] != version] == []
    assert "django" not in versions and "channels" not in versions


def test_the_newest_row_takes_the_locks_django_and_channels(script):
    lock = locked()
    assert script.row_pins("6.1", "new")[:2] == [f"django=={lock['django']}", f"channels=={lock['channels']}"]
