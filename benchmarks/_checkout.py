"""The baseline of a benchmark's --baseline: the same server run from another checkout (a git
worktree of the commit before a change), with its own code and this venv's interpreter."""

import contextlib
import subprocess
from pathlib import Path


def in_checkout(cls, directory: Path):
    """Return the server class (testwallet.server's) run from ``directory``: its code first, its cwd."""

    class InCheckout(cls):
        def environment(self):
            return {**super().environment(), "PYTHONPATH": str(directory)}

        def start(self):
            # python -m puts the cwd first on sys.path, before PYTHONPATH: the set-up commands and
            # the server start there (a driver starts its targets one by one, nothing runs beside).
            with contextlib.chdir(directory):
                return super().start()

    return InCheckout


def commit_of(directory: Path) -> str:
    """Return the commit checked out in ``directory``, "+ changes" after it when its work tree has some."""

    def git(*command):
        return subprocess.run(
            ["git", "-C", str(directory), *command], capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        return git("rev-parse", "HEAD") + (" + changes" if git("status", "--porcelain") else "")
    except (OSError, subprocess.CalledProcessError):
        return ""


def label_of(directory: Path) -> str:
    """Return the baseline's name in a benchmark's table: "@" and its short commit (or its folder's name)."""
    return f"@{commit_of(directory)[:7] or directory.name}"


def read_baseline(parser, args, needs: str) -> None:
    """Check ``args.baseline`` (a checkout that has ``needs``) and set its commit and its label."""
    args.baseline_label = ""
    if args.baseline:
        args.baseline = args.baseline.resolve()
        if not (args.baseline / needs).is_file():
            parser.error(f"--baseline {args.baseline}: no {needs} there")
        args.baseline_commit = commit_of(args.baseline) or "not a git checkout"
        args.baseline_label = label_of(args.baseline)
