"""
One visitor action: a POST whose view reads the browser session, finds its
pairing and calls the visitor's wallet, and one static file request, on a real
uvicorn process serving the project as ``make run`` does, against the same
action on a Node.js server; with --baseline, the same from another checkout
(the commit before a change) side by side in the same run.

    .venv/bin/python benchmarks/visitor_action.py [--runs 5] [--actions 1000] [--statics 500]
        [--visitors 4] [--targets node,plain,empty] [--baseline DIR]

Needs Node.js 18+ and the benchmark's own `ws` (once: ``npm ci --prefix benchmarks/node``).

Targets, each a fresh server process:
  node      benchmarks/node/visitor_action.mjs: a direct-link server written from
            the spec's description, whose POST /_bench/action finds the visitor's
            wallet by cookie and calls it over its WebSocket (the anchor)
  plain     the project's ASGI application (sites.config.asgi) with the
            production settings: Django's own ASGIHandler and middleware, WhiteNoise's middleware,
            DEBUG off as deploy/ serves it, on its SQLite database, under
            uvicorn with websockets-sansio, uvloop and httptools, as
            ``make run`` starts it (without its access log); the URLconf is
            the project's plus this module's two views: a page that gives the
            browser its CSRF cookie, and POST /_bench/action, an async view that
            reads the session's pairing (``byoa.aget_pairing``) and calls its
            wallet (``byoa.call_wallet``), CSRF protection on, through every
            middleware of ``settings.MIDDLEWARE``. The one thing not as deployed:
            the links name ws://127.0.0.1 (the wallets are local), which byoa
            refuses with DEBUG off; this server allows loopback links
  plain @<commit>  with --baseline DIR, the same from the checkout DIR (a git
            worktree of the commit before a change): its own code and its own
            benchmarks/visitor_action.py (cwd and PYTHONPATH DIR), this venv's
            interpreter
  empty     the floor: the same uvicorn serving an ASGI application of a few
            lines that reads the POST and answers a fixed JSON body (no
            Django, no session, no wallet call)

Each of ``--visitors`` visitors is an HTTP client with its own cookies: it
opens the page, asks POST /byoa/code for a link (its session then holds its
BYOA visitor id), and a headless wallet (benchmarks/node/wallets.mjs, the load
generator of benchmarks/byoa_calls.py, which answers each call at once)
connects with that link. A run is ``--actions`` POSTs over all visitors, one at
a time per visitor, then ``--statics`` GETs of a static file (STATIC_FILE,
served by WhiteNoise's middleware) over all
visitors the same way. CPU per request is the server's own (user + system of
its process tree, from /proc, around each part of the run). With two or more
CPUs the server runs on the last one and the clients and wallets on the others.

Every target's server runs from the start; the runs take the targets in turn
(run 1 of each, then run 2 of each...), so that a busy machine's changing load
falls on all of them alike. Printed per target: the median and [min-max] over
``--runs`` runs of CPU per action, with --baseline the plain path's median's
difference from the baseline's, the ratio to the Node anchor, actions per second
and p50 latency, and CPU per static file request (and its difference from the
baseline's). Then, for each Django target, what one action did in the server
process (over 200 more actions): ``sync_to_async`` hops, threads started, and
the cyclic garbage collector's collections and CPU time, and the CPU of one full
collection (the pause the oldest generation's collection makes, which
start-up's freeze shortens: visitor_ai.collector); where its hops go; and,
measured in the plain server, what one hop and one thread per request cost (CPU of all
its threads around 2,000 hops of a function that does nothing, and around 500
requests' worth of contexts).
"""

import asyncio
import contextlib
import gc
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder is on the path, not the project's: put it there first.
sys.path.insert(0, str(ROOT))

from benchmarks._figures import spread, versus  # noqa: E402
from benchmarks._pinning import pinned, split_cpus  # noqa: E402

NODE_DIR = ROOT / "benchmarks" / "node"
MANIFEST = "twentyq"  # a site manifest whose skill is text.generate
QUESTION = "Is it bigger than a breadbox?"
# A module of the browser library, as a page loads it (WhiteNoise serves it from the apps' files).
STATIC_FILE = "/static/byoa/link.js"
STATS_ACTIONS = 200
TARGETS = ("node", "plain", "empty")
#: The targets that are not the project on Django (with --baseline, "plain @<commit>" is).
NOT_DJANGO = ("node", "empty")

# -- the server side: runs inside the server process --------------------------------


def page(request):
    """Give the browser its CSRF cookie, as any demo page does."""
    from django.http import JsonResponse
    from django.middleware.csrf import get_token

    get_token(request)
    return JsonResponse({})


async def action(request):
    """Ask this browser session's wallet the visitor's question, as a demo page's POST would."""
    from django.http import JsonResponse

    from byoa import aget_pairing, call_wallet
    from byoa.exceptions import WalletCallError

    question = str(json.loads(request.body).get("question"))[:500]
    pairing = await aget_pairing(request, MANIFEST)
    if pairing is None:
        return JsonResponse({"output": None}, status=409)
    messages = [{"role": "user", "content": question}]
    try:
        output = await call_wallet(
            pairing, "text.generate", {"messages": messages}, {"maxTokens": 16}, timeout=20
        )
    except WalletCallError as error:  # the driver fails the run with this
        return JsonResponse({"output": None, "error": str(error)}, status=502)
    return JsonResponse({"output": output})


def _urlpatterns():
    from django.urls import include, path

    return [
        path("_bench/page", page),
        path("_bench/action", action),
        path("", include("sites.config.urls")),
    ]


class _Stats:
    """What the server process did: sync_to_async hops (by target), threads started, collections."""

    def __init__(self):
        self.hops = Counter()
        self.threads = Counter()  # by name, numbers as N
        self.collections = Counter()
        self.gc_seconds = Counter()  # CPU seconds, by generation
        self._gc_started = 0.0

    def install(self):
        from asgiref.sync import SyncToAsync

        stats, original_call, original_start = self, SyncToAsync.__call__, threading.Thread.start

        async def counted_call(self, *args, **kwargs):
            func = getattr(self.func, "__func__", self.func)
            stats.hops[getattr(func, "__qualname__", type(func).__qualname__)] += 1
            return await original_call(self, *args, **kwargs)

        def counted_start(self):
            stats.threads[re.sub(r"\d+", "N", self.name)] += 1
            return original_start(self)

        SyncToAsync.__call__ = counted_call
        threading.Thread.start = counted_start
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase, info):
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.gc_seconds[info["generation"]] += time.thread_time() - self._gc_started
            self.collections[info["generation"]] += 1

    def take(self):
        """Return the figures since the last take, and start again."""
        figures = {
            "hops": dict(self.hops),
            "threads": dict(self.threads),
            "collections": {str(k): v for k, v in self.collections.items()},
            "gc_seconds": {str(k): v for k, v in self.gc_seconds.items()},
            "tracked_objects": len(gc.get_objects()),
            "frozen_objects": gc.get_freeze_count(),
        }
        self.__init__()
        return figures


async def _hop_costs(count=2000):
    """Return the CPU (all threads) of one thread-sensitive sync_to_async hop, and of a request's own thread."""
    from asgiref.sync import ThreadSensitiveContext, sync_to_async

    def nothing():
        pass

    hop = sync_to_async(nothing, thread_sensitive=True)  # as MiddlewareMixin and the ORM hop
    async with ThreadSensitiveContext():
        await hop()
        before = time.process_time()
        for _ in range(count):
            await hop()
        per_hop = (time.process_time() - before) / count
    before = time.process_time()
    for _ in range(count // 4):
        async with ThreadSensitiveContext():  # as Django's ASGIHandler enters one per request
            await hop()
    per_context = (time.process_time() - before) / (count // 4)
    return {"hop_us": per_hop * 1e6, "thread_per_request_us": (per_context - per_hop) * 1e6}


def _full_collection():
    """Return the CPU of one full collection (gc.collect()) in this process, in microseconds."""
    before = time.thread_time()
    gc.collect()  # what the collector's oldest generation walks now and then: start-up's objects unless frozen
    return {"full_collection_us": (time.thread_time() - before) * 1e6}


def _allow_loopback_links():
    """Let POST /byoa/code build ws://127.0.0.1 links with DEBUG off (this server's wallets are local)."""
    from byoa.wire import endpoints

    problem = endpoints.problem
    endpoints.problem = lambda endpoint, *, dev_local=False: problem(endpoint, dev_local=True)


async def _empty(scope, receive, send):
    """The floor: read the request, answer a fixed JSON body."""
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    start = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"application/json")],
    }
    await send(start)
    await send({"type": "http.response.body", "body": b'{"output": {"text": "no"}}'})


def _server_application():
    """Return the project's ASGI application with this module's views in its URLconf, and /_bench/stats."""
    from django.conf import settings

    settings.ROOT_URLCONF = __name__  # the project's URLs and this module's two views
    if not settings.DEBUG:
        _allow_loopback_links()
    stats = _Stats()
    from sites.config.asgi import application as project  # start-up is frozen here (visitor_ai.collector)

    stats.install()  # once the application is built: only requests are counted
    empty = os.environ.get("VISITOR_ACTION_EMPTY") == "1"

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["path"] in ("/_bench/stats", "/_bench/hop", "/_bench/gc"):
            if scope["path"] == "/_bench/stats":
                body = json.dumps(stats.take()).encode()
            elif scope["path"] == "/_bench/gc":
                body = json.dumps(_full_collection()).encode()
            else:
                body = json.dumps(await _hop_costs()).encode()
            start = {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        if empty and scope["type"] == "http" and scope["path"] == "/_bench/action":
            await _empty(scope, receive, send)
            return
        await project(scope, receive, send)

    return application


if os.environ.get("VISITOR_ACTION_SERVER") == "1":
    import django

    django.setup()
    urlpatterns = _urlpatterns()
    application = _server_application()


# -- the driver: this process ----------------------------------------------------------


def _targets(server_cpu, workdir, baseline=None, baseline_label=""):
    from benchmarks._checkout import in_checkout
    from testwallet.server import DaphneServer, UvicornServer

    class NodeAnchor(DaphneServer):
        def command(self, fd):
            manifest = ROOT / "sites" / MANIFEST / "manifest.json"
            return pinned(["node", str(NODE_DIR / "visitor_action.mjs"), str(manifest), str(fd)], server_cpu)

    class Ours(UvicornServer):
        def command(self, fd):
            return pinned(super().command(fd), server_cpu)

    env = {"VISITOR_ACTION_SERVER": "1", "DJANGO_DEBUG": "0", "DJANGO_LOG_LEVEL": "WARNING"}
    # The environment's Redis must not leak into a target's; a baseline before issue 59 reads
    # VISITOR_AI_SPEEDUPS: its plain path, whatever the environment says.
    leaks = {"VISITOR_AI_SPEEDUPS": "", "REDIS_URL": ""}

    def ours(cls=Ours, **more):
        return lambda: cls(
            "benchmarks.visitor_action:application",
            ws="websockets-sansio",
            settings_module="sites.config.settings",
            env={**env, **leaks, **more},
            workdir=tempfile.mkdtemp(dir=workdir),
        )

    targets = {
        "node": lambda: NodeAnchor("node", setup_commands=(), workdir=tempfile.mkdtemp(dir=workdir)),
        "plain": ours(),
        "empty": ours(VISITOR_ACTION_EMPTY="1"),
    }
    if baseline is not None:
        targets[f"plain {baseline_label}"] = ours(in_checkout(Ours, baseline))
    return targets


class Visitor:
    """One browser: its cookies, its CSRF token, its wallet's link."""

    def __init__(self, url):
        import httpx

        self.http = httpx.AsyncClient(base_url=url, timeout=60)
        self.headers = {}

    async def open(self):
        """Open the page and ask for a link; return the link."""
        (await self.http.get("/_bench/page")).raise_for_status()
        token = self.http.cookies.get("csrftoken")
        self.headers = {"X-CSRFToken": token} if token else {}
        answer = await self.http.post("/byoa/code", json={"manifest": MANIFEST}, headers=self.headers)
        answer.raise_for_status()
        return answer.json()["link"]

    async def act(self, count, latencies):
        """Make ``count`` actions, one at a time; add each one's latency."""
        for _ in range(count):
            started = time.perf_counter()
            answer = await self.http.post("/_bench/action", json={"question": QUESTION}, headers=self.headers)
            if answer.status_code != 200 or not answer.json()["output"]:
                raise RuntimeError(f"the action failed: {answer.status_code} {answer.text[:300]}")
            latencies.append(time.perf_counter() - started)

    async def fetch_static(self, count):
        """GET the static file ``count`` times, one at a time, as a browser without a cache would."""
        for _ in range(count):
            answer = await self.http.get(STATIC_FILE)
            if answer.status_code != 200 or not answer.content:
                raise RuntimeError(f"the static file failed: {answer.status_code} {answer.text[:300]}")

    async def aclose(self):
        await self.http.aclose()


async def _run(visitors, actions, latencies):
    each = max(1, actions // len(visitors))
    await asyncio.gather(*(visitor.act(each, latencies) for visitor in visitors))
    return each * len(visitors)


async def _open_target(server, args, load):
    """Open the visitors of one target and connect their wallets; return the visitors."""
    visitors = [Visitor(server.url) for _ in range(args.visitors)]
    links = [await visitor.open() for visitor in visitors]
    await load.ask({"open": links, "name": "visitor's wallet"})
    await _run(visitors, max(args.visitors, args.actions // 5), [])  # warm-up
    return visitors


async def _measure_run(name, server, visitors, args):
    """Make one run of actions, then one of static file requests; return its row."""
    from benchmarks import _proc

    pids, latencies = _proc.tree(server.process.pid), []
    before, started = _proc.cpu_seconds(pids), time.perf_counter()
    done = await _run(visitors, args.actions, latencies)
    elapsed, cpu = time.perf_counter() - started, _proc.cpu_seconds(pids) - before
    latencies.sort()
    row = {"cpu_us": cpu / done * 1e6, "rate": done / elapsed, "p50": latencies[len(latencies) // 2] * 1e3}
    if name not in NOT_DJANGO and args.statics:
        each = max(1, args.statics // len(visitors))
        before = _proc.cpu_seconds(pids)
        await asyncio.gather(*(visitor.fetch_static(each) for visitor in visitors))
        row["static_us"] = (_proc.cpu_seconds(pids) - before) / (each * len(visitors)) * 1e6
    return row


async def _measure(targets, args, load):
    """Start every target, then run them in turn, run after run: each meets the same load on the machine."""
    results = {name: ([], None) for name in args.names}
    with contextlib.ExitStack() as stack:
        servers = {}
        for name in args.names:
            servers[name] = stack.enter_context(targets[name]())
            print(f"  started {name}", file=sys.stderr, flush=True)
        visitors = {}
        try:
            for name, server in servers.items():
                visitors[name] = await _open_target(server, args, load)
                if name not in NOT_DJANGO and args.statics:
                    await visitors[name][0].fetch_static(10)  # warm-up
            for run in range(args.runs):
                for name, server in servers.items():
                    results[name][0].append(await _measure_run(name, server, visitors[name], args))
                print(f"  run {run + 1} of {args.runs} done", file=sys.stderr, flush=True)
            for name, clients in visitors.items():
                if name not in NOT_DJANGO:
                    await clients[0].http.get("/_bench/stats")  # from here on
                    done = await _run(clients, STATS_ACTIONS, [])
                    stats = (await clients[0].http.get("/_bench/stats")).json() | {"actions": done}
                    stats["full"] = [
                        (await clients[0].http.get("/_bench/gc")).json()["full_collection_us"]
                        for _ in range(3)
                    ]
                    if name == "plain":
                        stats["costs"] = [(await clients[0].http.get("/_bench/hop")).json() for _ in range(3)]
                    results[name] = (results[name][0], stats)
        finally:
            await load.ask({"close": True})
            for clients in visitors.values():
                for visitor in clients:
                    await visitor.aclose()
    return results


def _print_stats(name, stats):
    actions, collections = stats["actions"], stats["collections"]
    each = ", ".join(
        f"gen {g}: {t / collections[g] * 1e6:.0f} us each" for g, t in sorted(stats["gc_seconds"].items())
    )
    print(
        f"  {name:<16} {sum(stats['hops'].values()) / actions:5.1f} hops, "
        f"{sum(stats['threads'].values()) / actions:.2f} threads started "
        f"({', '.join(f'{thread}: {n}' for thread, n in stats['threads'].items()) or 'none'}), "
        f"{sum(stats['collections'].values()) / actions:.2f} collections "
        f"({', '.join(f'gen {g}: {n}' for g, n in sorted(stats['collections'].items())) or 'none'}), "
        f"{sum(stats['gc_seconds'].values()) / actions * 1e6:.0f} us of CPU in the collector "
        f"({each or 'none'}); objects tracked {stats['tracked_objects']}, frozen {stats['frozen_objects']}; "
        f"a full collection {statistics.median(stats['full']) / 1000:.1f} ms of CPU (median of 3)"
    )


def _print_costs(stats):
    hop = statistics.median(cost["hop_us"] for cost in stats["costs"])
    thread = statistics.median(cost["thread_per_request_us"] for cost in stats["costs"])
    print(
        f"in the plain server: one thread-sensitive sync_to_async hop {hop:.0f} us of CPU; a request's own "
        f"thread (Django's ThreadSensitiveContext) {thread:.0f} us (medians of 3 measurements)"
    )


def _print_hops(name, stats):
    actions = stats["actions"]
    print(f"where {name}'s hops go, per action:")
    for target, count in sorted(stats["hops"].items(), key=lambda item: -item[1]):
        print(f"  {count / actions:5.2f}  {target}")


def _print_table(results, args):
    rows_of = {name: rows for name, (rows, _stats) in results.items()}
    before = rows_of.get(f"plain {args.baseline_label}") if args.baseline else None
    before_cpu = [row["cpu_us"] for row in before] if before else None
    before_static = [row["static_us"] for row in before if "static_us" in row] if before else None
    node = [row["cpu_us"] for row in rows_of["node"]] if "node" in rows_of else None
    compared = f"vs {args.baseline_label}" if args.baseline else "vs baseline"
    print(
        f"{'configuration':<18}{'CPU us/action':<22}{compared:<15}{'x node':<17}{'actions/s':<16}"
        f"{'p50 ms':<22}{'CPU us/static':<20}{compared:<15}"
    )
    for name, rows in rows_of.items():
        cpu = [row["cpu_us"] for row in rows]
        static = [row["static_us"] for row in rows if "static_us" in row]
        ratio = (
            f"{statistics.median(cpu) / statistics.median(node):.1f} [{min(cpu) / max(node):.1f}-"
            f"{max(cpu) / min(node):.1f}]"
            if node
            else "-"
        )
        compare = name == "plain" and before
        print(
            f"{name:<18}{spread(cpu):<22}{versus(cpu, before_cpu) if compare else '-':<15}"
            f"{ratio:<17}{spread([r['rate'] for r in rows]):<16}{spread([r['p50'] for r in rows], 2):<22}"
            f"{spread(static) if static else '-':<20}{versus(static, before_static) if compare else '-':<15}"
        )


async def _main(args):
    from benchmarks.byoa_calls import LoadGenerator

    server_cpu, load_cpus = split_cpus()
    if load_cpus:
        os.sched_setaffinity(0, load_cpus)
    workdir = Path(tempfile.mkdtemp(prefix="visitor-action-"))
    targets = _targets(server_cpu, workdir, args.baseline, args.baseline_label)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    async with LoadGenerator(load_cpus) as load:
        results = await _measure(targets, args, load)

    load_average = os.getloadavg()
    print(
        f"One visitor action (POST: session -> pairing -> wallet call, text.generate) and one static file "
        f"(GET {STATIC_FILE}), {args.visitors} visitors one request at a time each, {args.actions} actions and "
        f"{args.statics} static requests per run, {args.runs} runs; DEBUG off (deploy/), SQLite, uvicorn"
        + (
            f"; plain {args.baseline_label}: {args.baseline} ({args.baseline_commit})"
            if args.baseline
            else ""
        )
    )
    print(
        f"{started}, {_machine()}; server on CPU {server_cpu}, clients and wallets on {load_cpus}; "
        f"load average at the end {load_average[0]:.2f} {load_average[1]:.2f} {load_average[2]:.2f}"
    )
    print(
        "figures: median [min-max] over the runs; "
        + (
            f"vs {args.baseline_label}: the median's difference from the baseline's (CPU us, and %); "
            if args.baseline
            else ""
        )
        + "x node: ours / the Node anchor's median (and range)"
    )
    _print_table(results, args)
    stats = {name: found for name, (_rows, found) in results.items() if found}
    if stats:
        print(f"per action, in the server process ({STATS_ACTIONS} more actions each):")
        for name, found in stats.items():
            _print_stats(name, found)
        if "plain" in stats:
            _print_costs(stats["plain"])
        for name, found in stats.items():
            _print_hops(name, found)


def _machine():
    """Return the CPU's model and count, and the versions the figures belong to."""
    import platform
    from importlib import metadata

    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("django", "channels", "uvicorn", "whitenoise")
    )
    return f"{os.cpu_count()} x {model}, Python {platform.python_version()}, {versions}"


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--targets",
        default=",".join(TARGETS),
        help=f"comma-separated, of: {', '.join(TARGETS)}",
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per figure, for its spread")
    parser.add_argument("--actions", type=int, default=1000, help="actions per run, over all visitors")
    parser.add_argument(
        "--statics", type=int, default=500, help="static file requests per run, over all visitors (0: none)"
    )
    parser.add_argument("--visitors", type=int, default=4, help="visitors (each with its own wallet)")
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also the plain target from the checkout DIR (its code, its benchmarks/visitor_action.py)",
    )
    args = parser.parse_args(argv)
    args.targets = [name for name in args.targets.split(",") if name]
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"no target {', '.join(unknown)}; the targets: {', '.join(TARGETS)}")
    args.names = list(args.targets)
    from benchmarks._checkout import read_baseline

    read_baseline(parser, args, "benchmarks/visitor_action.py")
    if args.baseline:
        # Right after this checkout's: the two meet the machine's load one after the other.
        at = args.names.index("plain") + 1 if "plain" in args.names else len(args.names)
        args.names.insert(at, f"plain {args.baseline_label}")
    if not (NODE_DIR / "node_modules" / "ws").is_dir():
        sys.exit("Install the anchor's ws first: npm ci --prefix benchmarks/node")
    os.chdir(ROOT)
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
