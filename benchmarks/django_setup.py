"""
The CPU a process spends setting Django up with the demo project's settings.

    .venv/bin/python benchmarks/django_setup.py [--runs 7]

Every process that sets Django up pays it: a uvicorn worker, each management
command, each test's set-up. Two commands, each a fresh process:
  setup   ``python -c "import django; django.setup()"`` (it also says whether Twisted was imported)
  check   ``python -m django check`` (a management command: set-up and the system checks)

The runs take the commands in turn. Printed: the median and [min-max] over
``--runs`` runs of each process's CPU (user + system, from its rusage), and
whether the process imported Twisted (daphne's app config imports it).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "setup": ["-c", "import sys, django; django.setup(); print('twisted' in sys.modules)"],
    "check": ["-m", "django", "check"],
}


def _cpu_of(argv, env):
    """Run one process; return its CPU seconds (user + system) and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{argv} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def _spread(values, digits=2):
    values = sorted(values)
    return f"{statistics.median(values):.{digits}f} [{values[0]:.{digits}f}-{values[-1]:.{digits}f}]"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="processes per figure, for its spread")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="django-setup-"))
    (workdir / "var").mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "sites.config.settings",
        "VISITOR_AI_VAR_DIR": str(workdir / "var"),
        "REDIS_URL": "",
    }
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    cpu = {command: [] for command in COMMANDS}
    twisted = False
    _cpu_of(COMMANDS["setup"], env)  # warm the file cache and the bytecode
    for _ in range(args.runs):
        for command, command_argv in COMMANDS.items():
            seconds, output = _cpu_of(command_argv, env)
            cpu[command].append(seconds)
            if command == "setup":
                twisted = output.strip() == "True"
    load = os.getloadavg()
    from importlib import metadata

    print(
        f"Setting Django up with the demo settings: CPU seconds per process, {args.runs} processes each; "
        f"{started}, {os.cpu_count()} CPUs, load average {load[0]:.2f}; Python {sys.version.split()[0]}, "
        f"django {metadata.version('django')}, daphne {metadata.version('daphne')}"
    )
    print("figures: median [min-max]")
    print(f"{'command':<9}{'CPU s':<20}{'imports Twisted'}")
    for command, values in cpu.items():
        print(f"{command:<9}{_spread(values):<20}{'yes' if twisted else 'no'}")


if __name__ == "__main__":
    main()
