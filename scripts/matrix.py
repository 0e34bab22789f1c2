"""
Run the framework's tests on each supported Python, Django and Channels: `make matrix`.

Each row gets a virtualenv of its own under .matrix/ (made by uv from the
project with its [dev] extra, then the row's Django and Channels pinned), and
runs the framework's tests there: byoa, mcp_server, visitor_ai (the speed-ups
included), testwallet and the packaging test. The demos' own tests need
Django 6 (their Content-Security-Policy middleware) and run in `make test` on
the newest pair.

Why a script behind make rather than nox or tox: uv makes each venv in seconds
from its cache, `make` is already the one entry point, and one more tool would
only wrap these few commands. Each row is a line of ROWS; `make matrix
MATRIX_ROWS=3.12-5.2-4.2` runs one.

    python scripts/matrix.py [ROW ...] [-- PYTEST ARGS]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UV = ROOT / ".venv" / "bin" / "uv"

#: Python, Django, Channels ("new": the newest release): each Django on both Pythons, and
#: Channels' oldest supported minor and its newest each on both Pythons and every Django in turn.
ROWS = [
    "3.12-5.2-4.2",
    "3.13-5.2-new",
    "3.12-6.0-new",
    "3.13-6.0-4.2",
    "3.12-6.1-4.2",
    "3.13-6.1-new",
]
# A row as ROWS writes it: Python's minor, Django's minor, Channels' minor or "new".
ROW = re.compile(r"3\.\d+-\d+\.\d+-(\d+\.\d+|new)")

#: The framework's tests: every app a site installs, and the wheel a site installs them from.
FRAMEWORK_TESTS = [
    "tests/byoa",
    "tests/mcp_server",
    "tests/visitor_ai",
    "tests/testwallet",
    "tests/test_packaging.py",
]


def find_python(version: str) -> str:
    """Return the path of a Python ``version`` (on PATH, else pyenv's), or fail saying how to get one."""
    found = shutil.which(f"python{version}")
    if found and _runs(found):
        return found
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for candidate in sorted(pyenv.glob(f"{version}.*"), reverse=True):
        binary = candidate / "bin" / f"python{version}"
        if _runs(str(binary)):
            return str(binary)
    raise SystemExit(f"matrix: no Python {version} found; install it (e.g. 'pyenv install {version}').")


def _runs(python: str) -> bool:
    return subprocess.run([python, "-c", "pass"], capture_output=True).returncode == 0


def requirements(django: str, channels: str) -> list[str]:
    """Return the row's pins: Django's minor, and Channels' minor or its newest release."""
    pins = [f"Django~={django}.0"]
    pins.append("channels>=4.2" if channels == "new" else f"channels~={channels}.0")
    return pins


def venv_for(row: str) -> Path:
    """Make (or update) the row's virtualenv and return its directory."""
    python_version, django, channels = row.split("-")
    venv = ROOT / ".matrix" / row
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    if not (venv / "bin" / "python").exists():
        subprocess.run(
            # --seed: pip too, which the packaging test builds its wheel with, as a site would.
            [UV, "venv", "--quiet", "--seed", "--python", find_python(python_version), venv],
            check=True,
            env=env,
        )
    install = [UV, "pip", "install", "--quiet", "--python", venv / "bin" / "python"]
    # pip as well: a venv made before --seed has none.
    subprocess.run(
        [*install, "-e", ".[dev]", "pip", *requirements(django, channels)], check=True, cwd=ROOT, env=env
    )
    return venv


def versions(venv: Path) -> str:
    """Return what the venv runs, as the row's report says it."""
    probe = (
        "import sys, django, channels; "
        "print(f'Python {sys.version.split()[0]}, Django {django.__version__}, channels {channels.__version__}')"
    )
    return subprocess.run(
        [venv / "bin" / "python", "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()


def run_row(row: str, pytest_args: list[str]) -> tuple[str, str, int, float]:
    """Run the framework's tests in the row's venv; return (row, versions, exit status, seconds)."""
    started = time.monotonic()
    venv = venv_for(row)
    ran = versions(venv)
    print(f"== {row}: {ran}", flush=True)
    # Each row's servers, databases and browsers under a var/ of its own: rows may run side by side.
    env = {**os.environ, "VISITOR_AI_VAR_DIR": str(venv / "var"), "VIRTUAL_ENV": str(venv)}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    # Paths among the arguments narrow the run to them; without any, the framework's tests.
    paths = [] if any(arg.startswith("tests") for arg in pytest_args) else FRAMEWORK_TESTS
    done = subprocess.run([venv / "bin" / "python", "-m", "pytest", *paths, *pytest_args], cwd=ROOT, env=env)
    return row, ran, done.returncode, time.monotonic() - started


def main(argv: list[str]) -> int:
    split = argv.index("--") if "--" in argv else len(argv)
    rows, pytest_args = argv[:split], argv[split + 1 :]
    if {"-h", "--help"} & set(rows):
        print(__doc__.strip())
        print("\nrows:", " ".join(ROWS))
        return 0
    unknown = [row for row in rows if not ROW.fullmatch(row)]
    if unknown:
        # Checked before any venv is made: a mistyped row must not leave a .matrix/ directory behind.
        raise SystemExit(f"matrix: a row is PYTHON-DJANGO-CHANNELS (e.g. 3.12-5.2-4.2), not {unknown[0]!r}")
    results = [run_row(row, pytest_args) for row in rows or ROWS]
    print("\nmatrix:")
    for row, ran, status, seconds in results:
        print(
            f"  {row:<14} {ran:<52} {'passed' if status == 0 else f'FAILED ({status})':<12} {seconds:6.0f} s"
        )
    return max(status for _row, _ran, status, _seconds in results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
