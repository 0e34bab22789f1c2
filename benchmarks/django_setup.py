"""
The CPU a process spends setting Django up with the demo project's settings,
daphne's own app config against the daphne speed-up's
(``visitor_ai.speedups.daphne.DaphneRunserverConfig``), side by side in one run.

    .venv/bin/python benchmarks/django_setup.py [--runs 7]

Every process that sets Django up pays it: a uvicorn worker, each management
command, each test's set-up. Two commands, each a fresh process:
  setup   ``python -c "import django; django.setup()"`` (it also says whether Twisted was imported)
  check   ``python -m django check`` (a management command: set-up and the system checks)

Each configuration is a settings module of a few lines written for the run:
the demo settings with ``"daphne"`` (plain) or the speed-up's config in its
place in INSTALLED_APPS. The runs take the configurations in turn. Printed: the
median and [min-max] over ``--runs`` runs of each process's CPU (user +
system, from its rusage), the difference from the plain path's median, and
whether the process imported Twisted.
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
CONFIGURATIONS = {
    "plain": "daphne",
    "+ daphne config": "visitor_ai.speedups.daphne.DaphneRunserverConfig",
}
COMMANDS = {
    "setup": ["-c", "import sys, django; django.setup(); print('twisted' in sys.modules)"],
    "check": ["-m", "django", "check"],
}


def _settings_module(directory, index, app):
    name = f"bench_settings_{index}"
    (directory / f"{name}.py").write_text(
        "from sites.config.settings import *  # noqa: F403\n"
        f"INSTALLED_APPS = [{app!r} if a == 'daphne' else a for a in INSTALLED_APPS]  # noqa: F405\n"
    )
    return name


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
    base = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(workdir), str(ROOT)]),
        "VISITOR_AI_VAR_DIR": str(workdir / "var"),
        "VISITOR_AI_SPEEDUPS": "",
        "REDIS_URL": "",
    }
    envs = {
        name: {**base, "DJANGO_SETTINGS_MODULE": _settings_module(workdir, index, app)}
        for index, (name, app) in enumerate(CONFIGURATIONS.items())
    }
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    cpu = {(name, command): [] for name in CONFIGURATIONS for command in COMMANDS}
    twisted = {}
    for env in envs.values():
        _cpu_of(COMMANDS["setup"], env)  # warm the file cache and the bytecode
    for _ in range(args.runs):
        for name, env in envs.items():
            for command, command_argv in COMMANDS.items():
                seconds, output = _cpu_of(command_argv, env)
                cpu[name, command].append(seconds)
                if command == "setup":
                    twisted[name] = output.strip() == "True"
    load = os.getloadavg()
    from importlib import metadata

    print(
        f"Setting Django up with the demo settings: CPU seconds per process, {args.runs} processes each; "
        f"{started}, {os.cpu_count()} CPUs, load average {load[0]:.2f}; Python {sys.version.split()[0]}, "
        f"django {metadata.version('django')}, daphne {metadata.version('daphne')}"
    )
    print("figures: median [min-max]; vs plain: the median's difference from the plain path's (CPU s, and %)")
    print(f"{'configuration':<18}{'command':<9}{'CPU s':<20}{'vs plain':<18}{'imports Twisted'}")
    for name in CONFIGURATIONS:
        for command in COMMANDS:
            values, plain = cpu[name, command], cpu["plain", command]
            difference = statistics.median(values) - statistics.median(plain)
            versus = f"{difference:+.2f} ({difference / statistics.median(plain):+.0%})"
            print(
                f"{name:<18}{command:<9}{_spread(values):<20}{versus:<18}{'yes' if twisted[name] else 'no'}"
            )


if __name__ == "__main__":
    main()
