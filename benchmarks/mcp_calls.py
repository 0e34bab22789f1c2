"""
tools/call round trips per second against the project's MCP mount and against
a standalone MCPServer app, measured in one run, with their spread.

    .venv/bin/python benchmarks/mcp_calls.py [--clients 1 8 32] [--seconds 3] [--runs 5]

Targets, each a fresh process on a free loopback port sharing one SQLite file,
all running at once and measured in turn, run after run (so that a change of
the machine's load falls on all of them alike):
  mount/search_books      sites.config.asgi:application under uvicorn, the bookshop's search_books
  standalone/ping         benchmarks/standalone_mcp.py:app under uvicorn, a trivial tool (the baseline)
  standalone/search_books the same app calling the bookshop's search_books (for reference)
  mount-daphne/search_books  the project under daphne (for reference)

The target: mount/search_books >= 0.9 x standalone/ping, i.e. the bookshop's
tool through our mount costs no more than a tool that does nothing on the
SDK's own app. With two or more CPUs the servers run on the last one and
this load generator (httpx, keep-alive, one connection per client) on the
others. Loopback only.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testwallet.server import DaphneServer, UvicornServer

HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
}
SEARCH = {"name": "search_books", "arguments": {"mood": "calm", "limit": 3}}
PING = {"name": "ping", "arguments": {"text": "hello"}}


def body(call):
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}).encode()


async def client(url, payload, deadline, latencies):
    async with httpx.AsyncClient(timeout=10.0, limits=httpx.Limits(max_connections=1)) as http:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            response = await http.post(url, content=payload, headers=HEADERS)
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200 or response.json()["result"].get("isError"):
                raise RuntimeError(f"bad answer {response.status_code}: {response.text[:200]}")


async def measure(url, payload, clients, seconds):
    latencies = []
    started = time.perf_counter()
    await asyncio.gather(*(client(url, payload, started + seconds, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "rps": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
    }


def cpu_seconds(pid):
    """Return the user + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spread(values, digits=0):
    values = sorted(values)
    return f"{statistics.median(values):.{digits}f} [{values[0]:.{digits}f}-{values[-1]:.{digits}f}]"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    cpus = sorted(os.sched_getaffinity(0))
    server_cpu = cpus[-1] if len(cpus) > 1 else None

    def pinned(cls):
        class Pinned(cls):
            def command(self, fd):
                command = super().command(fd)
                return command if server_cpu is None else ["taskset", "-c", str(server_cpu), *command]

        return Pinned

    workdir = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    env = {"DJANGO_SETTINGS_MODULE": "sites.config.settings", "DJANGO_LOG_LEVEL": "WARNING"}
    setup = [("migrate", "--noinput"), ("load_catalog",)]
    mount = pinned(UvicornServer)(
        "sites.config.asgi:application", setup_commands=setup, workdir=workdir, env=env
    )
    standalone = pinned(UvicornServer)(
        "benchmarks.standalone_mcp:app", setup_commands=[], workdir=workdir, env=env
    )
    daphne = pinned(DaphneServer)(
        "sites.config.asgi:application", setup_commands=[], workdir=workdir, env=env
    )
    if server_cpu is not None:
        os.sched_setaffinity(0, cpus[:-1])
    results = {}
    with mount, standalone, daphne:
        targets = {
            "mount/search_books": (mount, SEARCH),
            "standalone/ping": (standalone, PING),
            "standalone/search_books": (standalone, SEARCH),
            "mount-daphne/search_books": (daphne, SEARCH),
        }
        for server, call in targets.values():  # warm-up (daphne starts the MCP session manager lazily)
            asyncio.run(measure(f"{server.url}/api/mcp", body(call), 2, 0.5))
        for _ in range(args.runs):
            for clients in args.clients:
                for name, (server, call) in targets.items():
                    before = cpu_seconds(server.process.pid)
                    row = asyncio.run(measure(f"{server.url}/api/mcp", body(call), clients, args.seconds))
                    row["cpu_us"] = (
                        (cpu_seconds(server.process.pid) - before) / (row["rps"] * args.seconds) * 1e6
                    )
                    results.setdefault((name, clients), []).append(row)

    load = os.getloadavg()
    print(
        f"tools/call, {args.seconds:g} s per measurement, {args.runs} runs, loopback; servers on CPU {server_cpu}, "
        f"load generator on {cpus[:-1] or cpus}; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print("figures: median [min-max] over the runs")
    print(
        f"{'target':<27}{'clients':>8}  {'calls/s':<20}{'server CPU us/call':<20}{'p50 ms':<20}{'p99 ms':<20}"
    )
    for (name, clients), rows in results.items():
        print(
            f"{name:<27}{clients:>8}  {spread([r['rps'] for r in rows]):<20}{spread([r['cpu_us'] for r in rows]):<20}"
            f"{spread([r['p50_ms'] for r in rows], 2):<20}{spread([r['p99_ms'] for r in rows], 2):<20}"
        )
    print()
    for clients in args.clients:
        ours = [r["rps"] for r in results["mount/search_books", clients]]
        base = [r["rps"] for r in results["standalone/ping", clients]]
        # Run by run: both measured back to back, under the same load.
        ratios = [a / b for a, b in zip(ours, base, strict=True)]
        verdict = "meets" if statistics.median(ratios) >= 0.9 else "MISSES"
        # The same comparison in server CPU per call (standalone's / ours), which a busy machine disturbs less.
        cpu = [
            b["cpu_us"] / a["cpu_us"]
            for a, b in zip(
                results["mount/search_books", clients], results["standalone/ping", clients], strict=True
            )
        ]
        print(
            f"clients={clients:<4} mount search_books / standalone ping: calls/s {spread(ratios, 2)} "
            f"({verdict} >= 0.9); calls per CPU-second {spread(cpu, 2)}"
        )


if __name__ == "__main__":
    main()
