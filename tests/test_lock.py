"""The suite runs on uv.lock's versions, and a lock that no longer matches pyproject.toml stops the build.

The Makefile installs with `uv sync --locked` (its comment says why); these tests hold it to that:
the environment this session runs in is exactly the lock's, and `make check-lock` (part of `make
check`, and run before every install) fails on a stale lock with a message that says what to run.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
UV = VENV / "bin" / "uv"
STALE = "uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock"


@pytest.mark.skipif(
    Path(sys.prefix).resolve() != VENV.resolve(),
    reason="not make test's venv: a matrix row runs the set scripts/matrix.py chooses for it",
)
def test_the_suites_environment_holds_exactly_the_locks_versions():
    done = subprocess.run(
        [UV, "sync", "--locked", "--check", "--extra", "dev", "--python", sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def check_lock(project: Path) -> subprocess.CompletedProcess[str]:
    """Run the Makefile's check-lock on the project in ``project`` with this checkout's venv and uv."""
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-f",
            ROOT / "Makefile",
            "-C",
            project,
            "check-lock",
            f"VENV={VENV}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path):
    """A copy of what the lock is made from: pyproject.toml, uv.lock and the files they name."""
    for name in ("pyproject.toml", "uv.lock", "README.md", ".python-version"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_a_lock_that_matches_pyproject_passes_the_check_in_silence(project):
    done = check_lock(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert STALE not in done.stderr


def test_a_requirement_added_without_make_lock_fails_the_check_naming_make_lock(project):
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert '    "orjson>=3.10",\n' in text
    pyproject.write_text(text.replace('    "orjson>=3.10",\n', '    "orjson>=3.10",\n    "six>=1.16",\n'))
    done = check_lock(project)
    assert done.returncode != 0
    assert STALE in done.stderr
