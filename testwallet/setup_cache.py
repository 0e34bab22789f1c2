"""
A server's set-up commands run once per test session, not once per server.

The first server with a set-up runs it in a directory of its own; every later one with the same
set-up (commands, settings module, own environment, Python and working directory) gets a copy of
the files it left. The cache is the directory ``TESTWALLET_SETUP_CACHE`` names (the plugin makes
one per session); without it, or set empty, each server runs its commands. What is kept and
why: docs/explanation/testwallet.md.
"""

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

__all__ = ["ENVIRONMENT_VARIABLE", "SetupCache", "from_environment"]

#: Where the cache is, for the servers of this process and of the processes it starts.
ENVIRONMENT_VARIABLE = "TESTWALLET_SETUP_CACHE"
# A file of the working directory that is each server's own (sites/config/settings.py makes it).
_NOT_COPIED = ("secret_key",)

RunCommands = Callable[[Path], None]


class SetupCache:
    """Working directories after set-up commands, kept under `root` and copied on request."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    @staticmethod
    def key(settings_module: str | None, commands: Sequence[Sequence[str]], env: Mapping[str, str]) -> str:
        """Name a set-up: the same name for the same commands, settings and own environment."""
        described = json.dumps(
            [
                sys.executable,
                os.getcwd(),  # `python -m django` finds the project from here
                settings_module,
                [list(command) for command in commands],
                sorted(env.items()),
            ]
        )
        return hashlib.sha256(described.encode()).hexdigest()[:32]

    def prepare(self, key: str, workdir: Path, run: RunCommands) -> None:
        """Fill `workdir` with the set-up named `key`: a copy if kept, else `run(directory)` first.

        `run` runs the commands with the given directory as the server's working directory
        and raises if one fails; then nothing is kept, and the next server tries again.
        """
        kept = self.root / key
        with self._turn(key):
            if not kept.is_dir():
                building = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=self.root))
                try:
                    run(building)
                except BaseException:
                    shutil.rmtree(building, ignore_errors=True)
                    raise
                building.rename(kept)
        shutil.copytree(kept, workdir, dirs_exist_ok=True, ignore=_own_files(kept))

    @contextlib.contextmanager
    def _turn(self, key: str) -> Iterator[None]:
        # One process builds a set-up while the others that need it wait, then copy it.
        with open(self.root / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


def _own_files(kept: Path) -> Callable[[str, list[str]], Sequence[str]]:
    # copytree asks of every directory it copies; only the top one holds the server's own files.
    return lambda directory, names: _NOT_COPIED if Path(directory) == kept else ()


def from_environment() -> SetupCache | None:
    """Return the session's cache when ``TESTWALLET_SETUP_CACHE`` names one, else None."""
    root = os.environ.get(ENVIRONMENT_VARIABLE)
    return SetupCache(root) if root and Path(root).is_dir() else None
