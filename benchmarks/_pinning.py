"""Where a benchmark's processes run: the server on a CPU of its own, the load on the others, so
that the server's CPU time is not the load generator's (taskset / sched_setaffinity)."""

import os
import shutil


def split_cpus():
    """Return (the server's CPU, the others for the load and the driver), or (None, None) on one CPU."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None, None
    return cpus[-1], cpus[:-1]


def pinned(command, cpu):
    """Return the command run on that CPU (unchanged without a CPU or taskset)."""
    if cpu is None or shutil.which("taskset") is None:
        return command
    return ["taskset", "-c", str(cpu), *command]
