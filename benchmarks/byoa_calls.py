"""
Server -> wallet calls over the BYOA direct link, ours against the spec's
Node.js server and Python's floor, in one process and across two, on loopback;
with --baseline, the same from another checkout (the commit before a change)
side by side in the same run.

    .venv/bin/python benchmarks/byoa_calls.py [--servers uvicorn-sansio,daphne,...] [--wallets 1,10,100]
        [--idle 1000] [--runs 5] [--calls 20000] [--call text|clip] [--no-call-log] [--two-processes]
        [--baseline DIR] [--load node|python]

Needs Node.js 18+ and the benchmark's own `ws` (once: ``npm ci --prefix benchmarks/node``).

Targets, each a fresh server process (or two):
  node          benchmarks/node/anchor.mjs: a server that behaves as the spec's
                minimal Node.js + ws server, with a trigger route (the anchor)
  python        benchmarks/asgi_anchor.py: the same server in bare ASGI on
                uvicorn with websockets-sansio (Python's floor)
  <server>      the project (benchmarks._call_server:application, the call log
                on unless --no-call-log) under daphne, uvicorn (websockets,
                websockets-sansio, wsproto; uvloop and httptools), hypercorn
                or granian, one process on the in-memory channel layer
  <server> 2p   with --two-processes, also each server as two processes
                sharing one SQLite file and a private redis-server (Debian's
                package): the wallets connect to the first, the calls are made
                on the second, so every call and its result cross Redis, on
                channels-redis's pub/sub layer, as the demo settings
                configure it with REDIS_URL.
  <server> 2p core  the same on channels-redis's core layer
                (REDIS_CHANNEL_LAYER=core: lists and blocking pops), which a
                site configured as Channels' docs say has. CPU per call counts
                both processes and redis-server, and the Redis commands per
                call (INFO commandstats before and after each run) are printed too.
  <target> @<commit>  with --baseline DIR, each of ours again from the checkout
                DIR (a git worktree of the commit before a change): its own
                code and its own benchmarks/_call_server.py (cwd and PYTHONPATH
                DIR), this venv's interpreter.

The same load generator serves every target: benchmarks/node/wallets.mjs,
headless wallets in Node that answer each call at once (``--load python``:
benchmarks/python_wallets.py, the same in Python on ``websockets``). Each target's
``/_bench/run`` makes ``--calls`` calls in all (split over the W wallets, 4 in
flight per wallet) with the site's own API (``byoa.calls.call_wallet`` for
ours, in the server process as a page's view would). CPU per call is the
server's own (user + system of its process tree, from /proc, around the run).
With two or more CPUs the server runs on the last one and the load generator
and this driver on the others (taskset / sched_setaffinity).

Every target runs from the start; for each W the runs take the targets in turn
(run 1 of each, then run 2 of each...), so that a busy machine's changing load
falls on all of them alike. Printed per target and W: the median and [min-max]
over ``--runs`` runs of CPU per call made, its difference from the plain path's
median (with --baseline: the same target's from DIR; else 2p core's from 2p's),
the ratio to the Node anchor measured in the same run, calls
per second and p50/p99 latency of the calls answered, the calls that failed
(None: not answered in time) over all runs; whether the one-process path stays within 2.5x
of the anchor's CPU per call (issue 36 keeps that bound) and within 3x of Python's floor at
every W, and the two-process path at most 1,500 us per call with none failed (issue 59). Then, with --idle,
memory per idle wallet (RSS of the process tree before and after ``--idle``
wallets connect that are never called) and CPU per call at W = 10 with those
idle wallets still connected.
"""

import asyncio
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder is on the path, not the project's: put it there first.
sys.path.insert(0, str(ROOT))

from benchmarks import _call_report as report  # noqa: E402
from benchmarks._call_server import IDLE_NAME, IN_FLIGHT, MANIFEST  # noqa: E402
from benchmarks._checkout import in_checkout, read_baseline  # noqa: E402
from benchmarks._pinning import pinned, split_cpus  # noqa: E402

NODE_DIR = ROOT / "benchmarks" / "node"


def _target_names(args):
    """Return the targets to measure, in the order they are printed, each with the one it is compared to."""
    names = {"node": None, "python": None}

    def add(name, reference=None):
        if args.baseline:  # this checkout's target, compared to the baseline's, printed after it
            names[name] = f"{name} {args.baseline_label}"
            names[f"{name} {args.baseline_label}"] = None
        else:
            names[name] = reference

    for server in args.servers:
        add(server)
    if args.two_processes:
        for server in args.servers:
            if server == "granian":
                continue  # it binds a port of its own choosing: no second process beside it here
            add(f"{server} 2p")
            add(f"{server} 2p core", f"{server} 2p")
    return names


def _targets(server_cpu, workdir, call_log, baseline=None, baseline_label=""):
    from testwallet.server import DaphneServer, HypercornServer, UvicornServer

    env = {
        "BYOA_BENCH_SERVER": "1",
        "BYOA_BENCH_CALL_LOG": "1" if call_log else "0",
        # The environment's Redis must not leak into a target's: each names its own.
        "REDIS_URL": "",
        # A baseline before issue 59 reads it: its plain path, whatever the environment says.
        "VISITOR_AI_SPEEDUPS": "",
        "DJANGO_LOG_LEVEL": "WARNING",
        **(
            {"BYOA_BENCH_PROFILE": os.environ["BYOA_BENCH_PROFILE"]}
            if "BYOA_BENCH_PROFILE" in os.environ
            else {}
        ),
    }
    app = "benchmarks._call_server:application"

    def pin(cls):
        class Pinned(cls):
            def command(self, fd):
                return pinned(super().command(fd), server_cpu)

        return Pinned

    class NodeAnchor(DaphneServer):
        def command(self, fd):
            return pinned(["node", str(NODE_DIR / "anchor.mjs"), str(MANIFEST), str(fd)], server_cpu)

    class Granian(DaphneServer):
        # Granian takes no listening socket from us: it binds a port we chose free a moment before.
        def start(self):
            import socket
            import subprocess

            import httpx

            env = self.environment()
            for command in self.setup_commands:
                subprocess.run(
                    [sys.executable, "-m", "django", *command], env=env, check=True, capture_output=True
                )
            with socket.create_server(("127.0.0.1", 0)) as probe:
                self.port = probe.getsockname()[1]
            command = pinned(
                [
                    sys.executable,
                    "-m",
                    "granian",
                    "--interface",
                    "asgi",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--loop",
                    "uvloop",
                    "--log-level",
                    "warning",
                    app,
                ],
                server_cpu,
            )
            with open(self._log_path, "wb") as log:  # the child writes to its own copy of the descriptor
                self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
            for _ in range(300):  # a benchmark may poll: granian has no socket of ours to queue on
                try:
                    httpx.get(self.url + "/", timeout=1)
                    return self
                except httpx.HTTPError:
                    time.sleep(0.1)
            raise RuntimeError(f"granian did not start:\n{self.output()}")

    def ours(cls, **options):
        return lambda: pin(cls)(
            app,
            settings_module="tests.byoa.server_settings",
            env=env,
            workdir=tempfile.mkdtemp(dir=workdir),
            **options,
        )

    def two(cls, layer="pubsub", **options):
        return lambda: TwoProcesses(
            lambda **more: pin(cls)(
                app,
                settings_module="tests.byoa.server_settings",
                workdir=tempfile.mkdtemp(dir=workdir),
                **options,
                **more,
            ),
            {**env, "REDIS_CHANNEL_LAYER": layer},
        )

    servers = {
        "daphne": (DaphneServer, {}),
        "uvicorn": (UvicornServer, {"ws": "websockets"}),
        "uvicorn-sansio": (UvicornServer, {"ws": "websockets-sansio"}),
        "uvicorn-wsproto": (UvicornServer, {"ws": "wsproto"}),
        "hypercorn": (HypercornServer, {}),
    }
    servers["granian"] = (Granian, {})
    targets = {
        "node": lambda: NodeAnchor("node", setup_commands=(), workdir=tempfile.mkdtemp(dir=workdir)),
        # The same server in bare ASGI on uvicorn with websockets-sansio, as ours is served: Python's floor.
        "python": lambda: pin(UvicornServer)(
            "benchmarks.asgi_anchor:application",
            ws="websockets-sansio",
            setup_commands=(),
            env=env,
            workdir=tempfile.mkdtemp(dir=workdir),
        ),
    }
    for name, (cls, options) in servers.items():
        targets[name] = ours(cls, **options)
        targets[f"{name} 2p"] = two(cls, **options)
        targets[f"{name} 2p core"] = two(cls, "core", **options)
        if baseline is not None:
            before = in_checkout(cls, baseline)
            targets[f"{name} {baseline_label}"] = ours(before, **options)
            targets[f"{name} 2p {baseline_label}"] = two(before, **options)
            targets[f"{name} 2p core {baseline_label}"] = two(before, "core", **options)
    return targets


class TwoProcesses:
    """Two server processes on one database and a private Redis: wallets on the first, calls made on the second."""

    def __init__(self, make, env):
        self.make = make  # make(env=..., setup_commands=...) -> a server not yet started
        self.env = env
        self.redis = self.first = self.second = None

    def __enter__(self):
        from tests.services import RedisServer

        self.redis = RedisServer(persistent=False).__enter__()
        try:
            # One site: the processes sign the events between them with the same SECRET_KEY (byoa.delivery.signing).
            env = {**self.env, "REDIS_URL": self.redis.url, "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
            self.first = self.make(env=env).start()
            shared = {**env, "DATABASE_URL": f"sqlite:///{self.first.database}"}
            self.second = self.make(env=shared, setup_commands=()).start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc_info):
        for server in (self.second, self.first):
            if server is not None:
                server.stop()
        self.redis.__exit__(*exc_info)

    @property
    def application(self):
        return f"{self.first.application} (2 processes)"

    @property
    def url(self):
        return self.first.url

    @property
    def calls_url(self):
        return self.second.url

    def pids(self):
        from benchmarks import _proc

        return [
            *_proc.tree(self.first.process.pid),
            *_proc.tree(self.second.process.pid),
            self.redis.process.pid,
        ]

    def parts(self):
        """Return the pids of each part whose CPU the sizing table splits: the two processes, Redis."""
        from benchmarks import _proc

        return {
            "wallets' process": _proc.tree(self.first.process.pid),
            "callers' process": _proc.tree(self.second.process.pid),
            "redis": [self.redis.process.pid],
        }

    def redis_commands(self):
        """Return how many commands Redis has executed so far (INFO commandstats), INFO itself left out."""
        import redis

        client = redis.Redis.from_url(self.redis.url)
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
        return sum(entry["calls"] for name, entry in stats.items() if name != "cmdstat_info")


def _server_pids(server):
    """Return the pids whose CPU and memory count as the server's."""
    from benchmarks import _proc

    return server.pids() if hasattr(server, "pids") else _proc.tree(server.process.pid)


class LoadGenerator:
    """benchmarks/node/wallets.mjs (or, ``python``, benchmarks/python_wallets.py), driven over stdin and stdout."""

    def __init__(self, cpus, kind="node"):
        self.cpus = cpus
        self.kind = kind
        self.process = None

    async def __aenter__(self):
        command = (
            ["node", str(NODE_DIR / "wallets.mjs")]
            if self.kind == "node"
            else [sys.executable, str(ROOT / "benchmarks" / "python_wallets.py")]
        )
        if self.cpus and shutil.which("taskset"):
            command = ["taskset", "-c", ",".join(map(str, self.cpus)), *command]
        self.process = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**24
        )
        return self

    async def ask(self, command):
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        await self.process.stdin.drain()
        line = await asyncio.wait_for(self.process.stdout.readline(), 300)
        if not line:
            raise RuntimeError("the load generator exited")
        return json.loads(line)

    async def __aexit__(self, *exc_info):
        self.process.stdin.close()
        await asyncio.wait_for(self.process.wait(), 30)


class Target:
    """One target while it runs: its server, and the wallets it has open now."""

    def __init__(self, name, server):
        self.name = name
        self.server = server
        self.pids = _server_pids(server)
        self.calls_url = getattr(
            server, "calls_url", server.url
        )  # two processes: the one the wallets are not on
        self.commands = getattr(server, "redis_commands", None)
        self.parts = server.parts() if hasattr(server, "parts") else {}

    async def links(self, http, count):
        return (await http.get(f"{self.server.url}/_bench/links", params={"n": count})).json()["links"]

    async def run(self, http, wallets, per_wallet, call_file):
        """Make one run of calls; return its row."""
        from benchmarks import _proc

        params = {"calls": per_wallet, "inflight": IN_FLIGHT, "call": str(call_file)}
        commands_before = self.commands() if self.commands else 0
        before = _proc.cpu_seconds(self.pids)
        parts_before = {part: _proc.cpu_seconds(pids) for part, pids in self.parts.items()}
        result = (await http.get(f"{self.calls_url}/_bench/run", params=params)).json()
        cpu = _proc.cpu_seconds(self.pids) - before
        parts = {part: _proc.cpu_seconds(pids) - parts_before[part] for part, pids in self.parts.items()}
        commands_after = self.commands() if self.commands else 0
        made = result["calls"] + result["failures"]
        if not made:
            raise RuntimeError(f"{self.name}: {result}")
        return {
            # Fewer than W when a pairing lost its channel (WalletProcessGone detaches it): said, not fatal.
            "wallets": (result["wallets"], wallets),
            # Per call made: a call that failed (None) cost CPU too; its latency is left out.
            "cpu_us": cpu / made * 1e6,
            "parts_us": {part: seconds / made * 1e6 for part, seconds in parts.items()},
            "failed": result["failures"],
            "kinds": result.get("kinds", {}),
            "rate": made / result["elapsed"],
            "p50": (result["p50"] or float("nan")) * 1e3,  # None: no call answered
            "p99": (result["p99"] or float("nan")) * 1e3,
            # Over the run, beats and pings included (a handful against thousands of calls).
            "redis": (commands_after - commands_before) / made if self.commands else None,
            # The calling process's collector (Python targets only; two processes: the callers' one).
            "gc": result.get("gc"),
            "calls_made": made,
        }


async def _measure(targets, http, load, wallets, args, call_file, results, key=None):
    """Open W wallets on every target, run each target's calls in turn --runs times, close them all."""
    per_wallet = max(1, args.calls // wallets)
    for target in targets:
        await load.ask({"open": await target.links(http, wallets), "name": "bench wallet"})
    try:
        for target in targets:  # warm-up
            await http.get(
                f"{target.calls_url}/_bench/run",
                params={"calls": max(1, per_wallet // 5), "inflight": IN_FLIGHT, "call": str(call_file)},
            )
        for run in range(args.runs):
            for target in targets:
                row = await target.run(http, wallets, per_wallet, call_file)
                results[target.name].setdefault(key or wallets, []).append(row)
            print(f"  W = {wallets}: run {run + 1} of {args.runs} done", file=sys.stderr, flush=True)
    finally:
        await load.ask({"close": True})


async def _measure_idle(target, http, load, args, call_file, results):
    """Memory per idle wallet, and CPU per call at W = 10 with them connected (this target alone)."""
    from benchmarks import _proc

    warm = await target.links(http, 10)
    await load.ask({"open": warm, "name": IDLE_NAME})  # every code path warm before the baseline
    before = _proc.rss_kib(target.pids)
    await load.ask({"open": await target.links(http, args.idle), "name": IDLE_NAME})
    await asyncio.sleep(1)  # let the server settle its allocations (a measurement, not a test)
    after = _proc.rss_kib(target.pids)
    results[target.name]["idle_kib"] = (after - before) / args.idle
    # Its close closes every wallet of the load generator: the idle ones too.
    await _measure([target], http, load, 10, args, call_file, results, key="idle_calls")


async def _main(args):
    import contextlib

    import httpx

    server_cpu, load_cpus = split_cpus()
    call = {
        "text": {
            "skill": "text.generate",
            "input": {"messages": [{"role": "user", "content": "Is it bigger than a breadbox?"}]},
            "params": {"maxTokens": 16},
        },
        "clip": {
            "skill": "audio.transcribe",
            "input": {"audio": {"mime": "audio/wav", "base64": _clip()}},
            "params": {"language": "en"},
        },
    }[args.call]
    workdir = Path(tempfile.mkdtemp(prefix="byoa-bench-"))
    call_file = workdir / "call.json"
    call_file.write_text(json.dumps(call))
    if load_cpus:
        os.sched_setaffinity(0, load_cpus)
    makers = _targets(server_cpu, workdir, args.call_log, args.baseline, args.baseline_label)
    names = _target_names(args)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    results = {name: {} for name in names}
    with contextlib.ExitStack() as stack:
        targets = []
        for name in names:
            targets.append(Target(name, stack.enter_context(makers[name]())))
            print(f"  started {name}", file=sys.stderr, flush=True)
        async with httpx.AsyncClient(timeout=600) as http, LoadGenerator(load_cpus, args.load) as load:
            for wallets in args.wallets:
                await _measure(targets, http, load, wallets, args, call_file, results)
            if args.idle:
                for target in targets:
                    await _measure_idle(target, http, load, args, call_file, results)
                    print(f"  idle wallets on {target.name} done", file=sys.stderr, flush=True)

    load = os.getloadavg()
    print(
        f"BYOA server -> wallet calls on loopback: {args.call} call ({len(json.dumps(call))} bytes of JSON), "
        f"{IN_FLIGHT} in flight per wallet, {args.calls} calls per run, {args.runs} runs, {args.load} wallets, "
        f"call log {'on' if args.call_log else 'off'}"
        + (", 2p: across two processes on Redis" if args.two_processes else "")
        + (f"; {args.baseline_label}: {args.baseline} ({args.baseline_commit})" if args.baseline else "")
    )
    print(
        f"{started}, {report.machine()}; server on CPU {server_cpu}, load generator on {load_cpus}; "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(
        "figures: median [min-max] over the runs; "
        + (
            f"vs {args.baseline_label}: the median's difference from the same target's in the baseline"
            if args.baseline
            else "vs 2p: the median's difference from the pub/sub layer's"
        )
        + " (CPU us, and %); x node: ours / the Node anchor's median (and range) in this run"
    )
    report.print_table(results, names, args)
    report.print_bound(results, names, args)
    report.print_across(results, names, args)
    report.print_failures(results, names, args)
    report.print_sizing(results, names, args)
    report.print_collector(results, names, args)
    if args.idle:
        report.print_idle(results, args)


def _clip():
    import base64

    from byoa.wire.wav import silent_clip

    return base64.b64encode(silent_clip(0.35)).decode()


def main(argv=None):
    import argparse
    import resource

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--servers",
        default="uvicorn-sansio,daphne",
        help="comma-separated: daphne, uvicorn, uvicorn-sansio, uvicorn-wsproto, hypercorn, granian",
    )
    parser.add_argument("--wallets", default="1,10,100", help="comma-separated wallet counts")
    parser.add_argument("--idle", type=int, default=1000, help="idle wallets for the memory figure (0: skip)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure, for its spread")
    parser.add_argument("--calls", type=int, default=20000, help="calls per run, over all wallets")
    parser.add_argument(
        "--call", choices=["text", "clip"], default="text", help="a small text.generate, or an 11 KB clip"
    )
    parser.add_argument(
        "--no-call-log", dest="call_log", action="store_false", help="BYOA['CALL_LOG'] = False"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also each of our targets from the checkout DIR (its code, its benchmarks/_call_server.py)",
    )
    parser.add_argument(
        "--load",
        choices=["node", "python"],
        default="node",
        help="the wallets: Node.js's ws (benchmarks/node/wallets.mjs) or Python's websockets (python_wallets.py)",
    )
    parser.add_argument(
        "--two-processes",
        action="store_true",
        help="also each server as two processes on Redis (wallets on one, calls made on the other)",
    )
    args = parser.parse_args(argv)
    args.servers = [name for name in args.servers.split(",") if name]
    read_baseline(parser, args, "benchmarks/_call_server.py")
    args.wallets = [int(w) for w in args.wallets.split(",")]
    if args.idle and 10 not in args.wallets:
        args.wallets.append(10)
    args.idle = min(args.idle, 5000)
    if not (NODE_DIR / "node_modules" / "ws").is_dir():
        sys.exit("Install the anchor's ws first: npm ci --prefix benchmarks/node")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.idle + 4096)), hard))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.byoa.server_settings")
    if args.two_processes and shutil.which("redis-server") is None:
        sys.exit("--two-processes needs redis-server (Debian: apt-get install redis-server)")
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
