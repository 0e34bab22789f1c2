"""
Where a command's CPU goes, by kind of process, counted by the kernel.

    .venv/bin/python benchmarks/suite_cpu.py [--top 25] [--by recipe] -- make test      (as root)

Runs the command with Linux's process accounting on (``acct(2)``: the kernel writes one record
for every process that exits, with its CPU time), and maps process ids to command lines by
reading ``/proc`` every 0.1 s meanwhile. It then prints the CPU seconds of each kind of process:
Chromium's renderers, browser, GPU and network processes, the pytest workers, the test servers
(daphne, uvicorn), their set-up commands, Playwright's node driver, PostgreSQL, ...
With ``--by recipe`` it prints them by the Makefile recipe line that started them instead (each
process counts for its nearest ancestor whose parent is ``make``): under ``make test``, the main
session, the LTS row, the examples and the frontend's suites, and each step of ``make check``.

Why not ``time`` or sampling ``/proc``: ``time`` counts only the children a parent waits for
(daemons and processes reaped by others escape it), and a sampler misses most of a process that
lives less than its period (each browser test's renderer lives about a second). Every process
that exits while the command runs has a record; those still running at its end have none.

It needs the right to turn accounting on (root, or CAP_SYS_PACCT), and turns it off at the end.
Run it on a machine doing nothing else: every process on it is counted.
"""

import argparse
import collections
import ctypes
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

# struct acct_v3 (linux/acct.h): 64 bytes; the fields read here and their offsets.
RECORD = 64
PIDS = struct.Struct("<II")  # ac_pid, ac_ppid at 16
TIMES = struct.Struct("<HH")  # ac_utime, ac_stime at 32, as comp_t in AHZ (100 a second)
COMM = slice(48, 64)
AHZ = 100

# The first key found in a command line names its kind; Chromium's by its --type.
KINDS = [
    ("--type=renderer", "Chromium renderers"),
    ("--type=gpu-process", "Chromium GPU process"),
    ("--type=utility", "Chromium network and utility"),
    ("--type=zygote", "Chromium zygotes"),
    ("chromium", "Chromium browser"),
    ("run-driver", "Playwright's node driver"),
    ("exec(eval(sys.stdin", "pytest-xdist workers"),
    ("-m daphne", "daphne"),
    ("uvicorn", "uvicorn"),
    ("hypercorn", "hypercorn"),
    ("testwallet.setup_commands", "servers' set-up commands"),
    ("sphinx", "Sphinx"),
    ("manage.py", "management commands"),
    ("-m django", "management commands"),
    ("pytest", "pytest (the session and nested runs)"),
    ("mypy", "mypy"),
    ("postgres", "PostgreSQL"),
    ("redis-server", "Redis"),
    ("nginx", "nginx"),
    ("node", "node"),
]


def comp_t(value: int) -> int:
    """Decode a comp_t: a 13-bit mantissa and a 3-bit base-8 exponent."""
    return (value & 0x1FFF) << (3 * (value >> 13))


def kind(command: str, comm: str) -> str:
    """Return the kind of a process from its command line (or, unseen, its kernel name)."""
    for key, name in KINDS:
        if key in command:
            return name
    # Threads Chromium names rename the process record's comm; an unseen command line is short-lived.
    return f"other ({comm})"


def is_make(command: str) -> bool:
    """Whether a command line runs make."""
    return Path(command.split(" ", 1)[0]).name == "make"


def recipe(pid: int, parents: Mapping[int, int], commands: Mapping[int, str]) -> str:
    """Return the command line of the make recipe that started ``pid``, or a word saying there was none.

    That is ``pid`` itself or its nearest ancestor whose parent runs make: for a Chromium renderer
    under ``make test``, the main session's ``pytest -n 3 ...`` (renderer, zygote, browser,
    Playwright's driver, a worker, the session).
    """
    seen = set()
    while pid in parents and pid not in seen:
        seen.add(pid)
        parent = parents[pid]
        if is_make(commands.get(parent, "")):
            return commands.get(pid, "(unseen)")
        pid = parent
    return "(no make recipe: orphaned, or outside the command)"


def watch(commands: dict[int, str], parents: dict[int, int], stop: threading.Event) -> None:
    """Map each process id seen in /proc to its command line and first parent until ``stop``."""
    while not stop.is_set():
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and int(entry.name) not in commands:
                try:
                    line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue  # gone since the listing
                if line:
                    commands[int(entry.name)] = line
                    # As first seen: a daemon's parent at its exit is init, long after the one that started it.
                    parents[int(entry.name)] = parent
        stop.wait(0.1)


def records(path: Path) -> list[tuple[int, int, str, float]]:
    """Return (pid, parent's pid at exit, comm, CPU seconds) of each accounting record in ``path``."""
    data = path.read_bytes()
    out = []
    for start in range(0, len(data) - RECORD + 1, RECORD):
        record = data[start : start + RECORD]
        pid, ppid = PIDS.unpack_from(record, 16)
        user, system = TIMES.unpack_from(record, 32)
        comm = record[COMM].split(b"\0")[0].decode(errors="replace")
        out.append((pid, ppid, comm, (comp_t(user) + comp_t(system)) / AHZ))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    parser.add_argument("--top", type=int, default=25, help="rows to print (default 25)")
    parser.add_argument(
        "--by", choices=["kind", "recipe"], default="kind", help="kind of process (default) or make recipe"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("name the command to run after --")

    libc = ctypes.CDLL(None, use_errno=True)
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as scratch:
        log = Path(scratch) / "acct"
        log.touch()
        if libc.acct(str(log).encode()) != 0:
            print(f"acct(2) refused: {os.strerror(ctypes.get_errno())} (it needs root or CAP_SYS_PACCT)")
            return 2
        commands: dict[int, str] = {}
        parents: dict[int, int] = {}
        stop = threading.Event()
        watcher = threading.Thread(target=watch, args=(commands, parents, stop), daemon=True)
        watcher.start()
        started = time.monotonic()
        try:
            status = subprocess.call(command)
        finally:
            wall = time.monotonic() - started
            stop.set()
            watcher.join()
            libc.acct(None)
        seen = records(log)

    for pid, ppid, _, _ in seen:
        parents.setdefault(pid, ppid)
    by_row: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()
    for pid, _, comm, seconds in seen:
        if args.by == "kind":
            name = kind(commands.get(pid, ""), comm)
        else:
            name = recipe(pid, parents, commands)[:100]
        by_row[name] += seconds
        count[name] += 1
    total = sum(by_row.values())
    print(f"\n{' '.join(command)}: exit status {status}, {wall:.0f} s wall")
    print(f"{total:.0f} CPU-s in {len(seen)} processes that exited ({total / wall:.2f} cores on average)")
    print(f"{'CPU-s':>8} {'share':>6} {'procs':>6}  {args.by}")
    for name, seconds in by_row.most_common(args.top):
        print(f"{seconds:8.1f} {100 * seconds / total:5.1f}% {count[name]:6d}  {name}")
    return status


if __name__ == "__main__":
    sys.exit(main())
