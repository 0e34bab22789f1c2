"""
Run the framework's tests on each supported Python, Django and Channels: `make matrix`.

Each row gets a virtualenv of its own under .matrix/ and runs the framework's
tests there: byoa, mcp_server, visitor_ai, testwallet
and the packaging test. A row's set is chosen, not resolved anew: its Django and
Channels are the releases RELEASES names (or, for the lock's own minor and for
"new", uv.lock's), and every other package is uv.lock's version, as in `make
test`'s venv. uv checks that the set holds together (it resolves the project's
[dev] extra under those pins, written to the row's constraints.txt and
requirements.txt) and installs exactly it, so a row installs the same set on
every machine and on every day until this file or the lock changes. The demos' own tests need
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
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UV = ROOT / ".venv" / "bin" / "uv"

#: Python, Django, Channels ("new": the lock's release): each Django on both Pythons, and
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

#: The release a row tests of each minor that uv.lock does not hold: the newest patch release of
#: that minor when it was written here. Raise one by hand when a patch release is out; the lock's
#: own minors follow `make lock-upgrade`.
RELEASES = {
    "django": {"5.2": "5.2.20", "6.0": "6.0.10"},
    "channels": {"4.2": "4.2.2"},
}

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


def locked_versions() -> dict[str, str]:
    """Return {name: version} of the packages uv.lock holds from an index."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    return {
        package["name"]: package["version"] for package in lock["package"] if "registry" in package["source"]
    }


def release(package: str, minor: str, locked: dict[str, str]) -> str:
    """Return the release of ``package`` a row tests for ``minor`` (or "new"): RELEASES' or the lock's."""
    if minor in RELEASES[package]:
        return RELEASES[package][minor]
    if minor == "new" or locked[package].startswith(f"{minor}."):
        return locked[package]
    raise SystemExit(
        f"matrix: no release of {package} {minor} is chosen: add it to RELEASES in scripts/matrix.py"
    )


def row_pins(django: str, channels: str) -> list[str]:
    """Return the row's constraints: its Django and Channels, and every other package at the lock's version."""
    locked = locked_versions()
    exported = subprocess.run(
        [UV, "export", "--frozen", "--quiet", "--extra", "dev", "--no-emit-project", "--no-hashes"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # One requirement a line (`name==version ; marker`); the export's comments say what needs each.
    others = [
        line
        for line in exported.splitlines()
        if line and not line.startswith((" ", "#")) and line.split("==")[0] not in ("django", "channels")
    ]
    return [
        f"django=={release('django', django, locked)}",
        f"channels=={release('channels', channels, locked)}",
        *others,
    ]


def venv_for(row: str) -> Path:
    """Make (or update) the row's virtualenv, exactly its chosen set, and return its directory."""
    python_version, django, channels = row.split("-")
    venv = ROOT / ".matrix" / row
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    if not (venv / "bin" / "python").exists():
        subprocess.run(
            [UV, "venv", "--quiet", "--python", find_python(python_version), venv], check=True, env=env
        )
    python = ["--python", venv / "bin" / "python"]
    constraints = venv / "constraints.txt"
    constraints.write_text("\n".join(row_pins(django, channels)) + "\n")
    # The resolver confirms that the row's Django and Channels fit the lock's other versions (it
    # fails naming the conflict if not), and writes the whole set, the checkout among it, once.
    requirements = venv / "requirements.txt"
    subprocess.run(
        [UV, "pip", "compile", "--quiet", *python, "--extra", "dev", "--constraints", constraints]
        + ["--no-header", "--output-file", requirements, "pyproject.toml"],
        check=True,
        cwd=ROOT,
        env=env,
    )
    requirements.write_text("-e .\n" + requirements.read_text())
    # Exact: what an earlier set of the row installed and this one does not is removed.
    subprocess.run([UV, "pip", "sync", "--quiet", *python, requirements], check=True, cwd=ROOT, env=env)
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
    locked = locked_versions()
    for row in rows or ROWS:  # a row whose release is not chosen fails here too, before any venv
        _python, django, channels = row.split("-")
        release("django", django, locked), release("channels", channels, locked)
    results = [run_row(row, pytest_args) for row in rows or ROWS]
    print("\nmatrix:")
    for row, ran, status, seconds in results:
        print(
            f"  {row:<14} {ran:<52} {'passed' if status == 0 else f'FAILED ({status})':<12} {seconds:6.0f} s"
        )
    return max(status for _row, _ran, status, _seconds in results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
