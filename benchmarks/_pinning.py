"""Where a benchmark's processes run: the server on a CPU of its own, the load on the others, so
that the server's CPU time is not the load generator's (taskset / sched_setaffinity); for a
cluster (soak.py), the servers and their services on most CPUs and the load on the rest."""

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


def _cluster_split():
    """Return (the servers' CPUs, the load generator's CPUs), or None when there are too few to split."""
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 4:
        return None
    driver = available[-max(1, len(available) // 4) :]
    return available[: -len(driver)], driver


def pin_for_servers():
    """Run what this process starts from now on on the servers' CPUs; return the note for the report."""
    split = _cluster_split()
    if split is None:
        count = len(os.sched_getaffinity(0))
        return (
            f"the load generator is not pinned: {count} CPUs, and pinning it to one would leave "
            f"the servers, nginx, Redis and PostgreSQL {count - 1}"
        )
    os.sched_setaffinity(0, split[0])  # the children started meanwhile inherit it
    return f"servers, nginx, Redis, PostgreSQL on CPUs {split[0]}; the load generator on CPUs {split[1]}"


def pin_load_generator():
    """Move this process (the wallets and the callers) to its own CPUs, once everything has started."""
    split = _cluster_split()
    if split is not None:
        os.sched_setaffinity(0, split[1])
