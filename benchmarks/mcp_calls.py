"""
tools/call round trips per second, p50 and p99, against the project's MCP mount
and against a standalone MCPServer app serving the same tool, in one run.

    .venv/bin/python benchmarks/mcp_calls.py [--clients 1 8 32] [--seconds 5]

Targets, each a fresh process on a free loopback port sharing one SQLite file:
  project/uvicorn     sites.config.asgi:application under uvicorn (lifespan on)
  standalone/uvicorn  benchmarks/standalone_mcp.py:app under uvicorn (the baseline)
  project/daphne      sites.config.asgi:application under daphne, as `make run` serves it

The target ratio (>= 0.9) compares the project's mount with the standalone app
under the same server, uvicorn, so that it measures what our mount adds and not
daphne against uvicorn; the daphne row is printed for reference.
Load comes from this process (httpx, keep-alive, one connection per client) and
is bounded by --seconds per measurement. Loopback only.
"""

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testwallet.server import DaphneServer  # noqa: E402

CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "search_books", "arguments": {"mood": "calm", "limit": 3}},
}
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
}


class UvicornServer(DaphneServer):
    """The same process management, serving with uvicorn instead of daphne."""

    def command(self, fd):
        return [
            sys.executable, "-m", "uvicorn", "--fd", str(fd),
            "--lifespan", "on", "--no-access-log", "--log-level", "info", self.application,
        ]


async def client(url, deadline, latencies):
    body = json.dumps(CALL).encode()
    async with httpx.AsyncClient(timeout=10.0, limits=httpx.Limits(max_connections=1)) as http:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            response = await http.post(url, content=body, headers=HEADERS)
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200 or response.json()["result"].get("isError"):
                raise RuntimeError(f"bad answer {response.status_code}: {response.text[:200]}")


async def measure(url, clients, seconds):
    # A short warm-up, so that first-request start-up (daphne's lazy session manager) is not counted.
    await asyncio.gather(*(client(url, time.perf_counter() + 0.5, []) for _ in range(clients)))
    latencies = []
    started = time.perf_counter()
    await asyncio.gather(*(client(url, started + seconds, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "rps": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "calls": len(latencies),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    setup = [("migrate", "--noinput"), ("load_catalog",)]
    env = {"DJANGO_SETTINGS_MODULE": "sites.config.settings", "DJANGO_LOG_LEVEL": "WARNING"}
    targets = {
        "project/uvicorn": lambda: UvicornServer("sites.config.asgi:application", setup_commands=setup, workdir=workdir, env=env),
        "standalone/uvicorn": lambda: UvicornServer("benchmarks.standalone_mcp:app", setup_commands=[], workdir=workdir, env=env),
        "project/daphne": lambda: DaphneServer("sites.config.asgi:application", setup_commands=[], workdir=workdir, env=env),
    }
    results = {}
    for name, make in targets.items():
        with make() as server:
            for clients in args.clients:
                results[name, clients] = asyncio.run(measure(f"{server.url}/api/mcp", clients, args.seconds))

    print(f"tools/call search_books, {args.seconds:g} s per row, loopback, {len(args.clients)} client counts")
    print(f"{'target':<20}{'clients':>8}{'calls/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
    for (name, clients), row in results.items():
        print(f"{name:<20}{clients:>8}{row['rps']:>10.0f}{row['p50_ms']:>9.2f}{row['p99_ms']:>9.2f}")
    print()
    for clients in args.clients:
        base = results["standalone/uvicorn", clients]["rps"]
        mount = results["project/uvicorn", clients]["rps"] / base
        daphne = results["project/daphne", clients]["rps"] / base
        verdict = "meets" if mount >= 0.9 else "MISSES"
        print(f"clients={clients:<4} mount ratio {mount:.2f} ({verdict} >= 0.9)   daphne/standalone-uvicorn {daphne:.2f}")


if __name__ == "__main__":
    main()
