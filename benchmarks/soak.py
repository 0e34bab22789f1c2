"""
Soak: many wallets, many calls, several server processes, wallets that drop
mid-call and come back; every call accounted for, nothing lost, misrouted or
answered twice. Loopback only, bounded in time.

    .venv/bin/python benchmarks/soak.py [--wallets 1000] [--calls 100] [--processes 2] [--drop 0.1]
        [--routing nginx|direct] [--concurrency 100] [--timeout 10] [--time-limit 1800]
        [--rss-growth-mib 48] [--quick]

The site: N uvicorn processes as ``make run`` serves it (websockets-sansio,
uvloop and httptools when installed), each on its own loopback port, sharing
one Redis channel layer and one PostgreSQL database (``tests.services``,
from Debian's packages; SQLite when PostgreSQL is not installed, or with
``--database sqlite``). Settings: tests/byoa/server_settings.py (whose
``/_test/call`` calls the requesting browser session's wallet, as a demo
page's view does), with the benchmark manifest and the code rate limits
raised; the call log stays on.

The routing (``--routing``): ``nginx`` (the default) is the deployment's,
nginx from deploy/nginx.conf.template (``deploy.cluster.NginxProxy``, its
per-address limits raised: every visitor here is 127.0.0.1) in front of the
processes, hashing each browser's route id (byoa/pairing/route_ids.py: its cookie on the
page's requests, the endpoint's last segment on its wallet's socket), so a
page and its wallet meet on one process. ``direct`` is the soak without a
proxy: each visitor's page and link on the process its index picks (index
modulo N), each call on a process picked at random, so about (N-1)/N of the
calls cross processes; it is there to compare.

The visitors: one browser session per wallet: ``GET /_test/page``, then
``POST /byoa/code`` for a link, through nginx (or on their process).

The wallets: the project's own headless wallet (``testwallet.direct.DirectWallet``),
one per link, all in this process. It holds 1,000 connections cheaply enough
(the table prints this process's memory), and it is what comes back after a
drop with its pairing token (consent "decide on my own"), so the soak runs the
real reconnect path rather than a re-implementation. Its backend echoes each
call's unique id (``soak:<wallet>:<call>`` in the message) and notes every id
it runs, and which wallet ran it.

The calls: ``POST /_test/call`` with the visitor's cookies (session, route
id), through nginx (or to a process picked at random). Whether a call crossed
processes is what the process that took it says (``X-Test-Wallet``,
tests/byoa/server_urls.py: the wallet's connection was in it, or elsewhere),
not a guess from the routing; the table splits the calls so and prints the
share that crossed. Each wallet gets its calls one after another;
``--concurrency`` bounds the calls in flight over all wallets. One call per
wallet warms every path up before the start memory is read; those are not
counted.

The CPUs: with 4 or more, the load generator (this process: the wallets and
the callers) runs on a quarter of them and everything it starts (the servers,
nginx, Redis, PostgreSQL) on the rest (``os.sched_setaffinity``), so that it
does not take the servers' CPU. With fewer there is nothing to pin it away to
without starving the servers: it is not pinned, and the first line says so.

The drops: ``--drop`` of the wallets (10%) each drop their connection (a TCP
abort, no bye) while serving one call picked at random; that call should come
back ``None``, and the wallet's next call waits until it is back.

Each call is classified by what its caller received: answered (its own id),
None, misrouted (another call's id, or run by a wallet other than the one
called), lost (no answer within the call's timeout plus a margin), error (an
HTTP failure). Duplicated: an id run more than once by the wallets. Lost,
misrouted, duplicated and errors must be 0, and no process may grow its
resident memory by more than ``--rss-growth-mib`` between the start (wallets
connected, paths warm) and the end; otherwise the exit status is 1.
"""

import asyncio
import collections
import os
import random
import resource
import secrets
import shutil
import sys
import tempfile
import time
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder is on the path, not the project's: put it there first.
sys.path.insert(0, str(ROOT))

from benchmarks._pinning import pin_for_servers, pin_load_generator  # noqa: E402
from benchmarks._soak_report import report  # noqa: E402

MANIFEST = ROOT / "tests/byoa/manifests/bench.json"
SETTINGS = "tests.byoa.server_settings"
SKILL = "text.generate"
HTTP_MARGIN = 30.0  # seconds past a call's timeout before its caller counts it lost
BACK_SECONDS = 30.0  # how long a dropped wallet may take to come back


# -- the server side: runs inside each server process ----------------------------------


def _server_application():
    """Return the project's ASGI app under the soak's settings."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    django.setup()
    from django.conf import settings
    from django.db.backends.base.base import BaseDatabaseWrapper

    from byoa.conf import DEFAULTS

    # DEBUG stays on: links to ws://127.0.0.1 are built only with it. Its query
    # log (up to 9,000 queries per connection) would count as memory growth.
    BaseDatabaseWrapper.queries_limit = 0
    # Before the router is imported: it loads and checks the manifests.
    settings.BYOA = {
        **settings.BYOA,
        "MANIFESTS": {"bench": str(MANIFEST)},
        "DEFAULT_MANIFEST": "bench",
        "CODES_PER_ADDRESS": 10**9,
        "CODES_PER_SESSION": 10**9,
        # The production hello timeout, not the end-to-end tests' 1 s: a loaded
        # server may read a hello that came in time later than that.
        "HELLO_SECONDS": DEFAULTS["HELLO_SECONDS"],
    }
    from sites.config.asgi import application

    return application


if os.environ.get("BYOA_SOAK_SERVER") == "1":
    application = _server_application()


# -- the wallets: this process ---------------------------------------------------------


class Ledger:
    """What the wallets ran: every call id, and the calls that reached the wrong wallet."""

    def __init__(self):
        self.ran = collections.Counter()
        self.wrong_wallet = set()
        self.dropped = set()


def _soak_wallet_class():
    from testwallet.direct import Backend, BackendError, Consent, DirectWallet

    class EchoBackend(Backend):
        """Answer each call with its own id, and note it in the ledger."""

        def __init__(self, wallet):
            self.wallet = wallet

        def skills(self):
            return {"audio.transcribe", SKILL}  # the bench manifest requires audio.transcribe

        async def run(self, skill, input, params):
            return await self.wallet.answer(input["messages"][0]["content"])

    class SoakWallet(DirectWallet):
        """A headless wallet that echoes call ids and drops its connection once, mid-call, when told."""

        def __init__(self, index, ledger, drop_at, rng):
            super().__init__(
                EchoBackend(self),
                consent=Consent.DECIDE_ON_MY_OWN,
                dev_local=True,
                name=f"soak {index}",
                delays=lambda: iter([rng.uniform(0.05, 1.0), 1, 2, 5, 10]),
            )
            self.index = index
            self.ledger = ledger
            self.drop_at = drop_at  # the call number during which to drop, or None
            self.back = asyncio.Event()  # set while connected (welcomed), cleared at our drop
            self.connections = 0

        async def _connect(self, **options):
            welcomed = await super()._connect(**options)
            if welcomed:
                self.connections += 1
                self.back.set()
            return welcomed

        async def answer(self, call_id):
            self.ledger.ran[call_id] += 1
            _, wallet, number = call_id.split(":")
            if int(wallet) != self.index:
                self.ledger.wrong_wallet.add(call_id)
            if self.drop_at is not None and int(number) == self.drop_at:
                self.drop_at = None
                self.back.clear()
                self.ledger.dropped.add(call_id)
                await self.drop()
                raise BackendError("dropped on purpose")  # its result cannot be sent: the socket is gone
            return {"text": call_id}

    return SoakWallet


# -- the driver ------------------------------------------------------------------------


class Visitor:
    """One browser session, where its page is served (nginx, or its process) and its wallet."""

    def __init__(self, index, home):
        self.index = index
        self.home = home
        self.cookie = ""
        self.link = None
        self.wallet = None


def _no_cookie_jar():
    # One client for all visitors: each request carries its visitor's cookie
    # itself, so the client must keep none of the cookies it is sent.
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


async def _open_visitor(http, visitor):
    page = await http.get(f"{visitor.home.url}/_test/page")
    csrf = page.cookies["csrftoken"]
    response = await http.post(
        f"{visitor.home.url}/byoa/code", headers={"x-csrftoken": csrf, "cookie": f"csrftoken={csrf}"}
    )
    if response.status_code != 200:
        raise RuntimeError(f"POST /byoa/code answered {response.status_code}: {response.text[:300]}")
    # The session, and the route id that nginx hashes (byoa/routes.py; POST /byoa/code sets it).
    visitor.cookie = "; ".join(
        f"{name}={response.cookies[name]}" for name in ("sessionid", "byoa_route") if name in response.cookies
    )
    visitor.link = response.json()["link"]


async def _gather_in_batches(coroutines, size=50):
    results = []
    for start in range(0, len(coroutines), size):
        results.extend(await asyncio.gather(*coroutines[start : start + size]))
    return results


#: Where the process that took a call found the wallet's connection (X-Test-Wallet), and the row.
WHERE = {"local": "same", "other": "other", "away": "away", "none": "away"}


class Tally:
    """The outcome of every counted call, by where the wallet's connection was: the caller's process or not."""

    KINDS = ("answered", "none", "none_at_drop", "misrouted", "lost", "error")

    def __init__(self):
        self.rows = {
            "same": collections.Counter(),
            "other": collections.Counter(),
            "away": collections.Counter(),
        }
        self.latency = {"same": [], "other": [], "away": []}
        self.received = collections.Counter()  # call ids seen by callers, for duplicates
        self.by_process = collections.Counter()  # calls taken, by the pid of the process that took them
        self.errors = []

    def add(self, where, kind, seconds=None):
        self.rows[where]["made"] += 1
        self.rows[where][kind] += 1
        if seconds is not None:
            self.latency[where].append(seconds)


async def _call(http, server, visitor, call_id, timeout):
    """Make one call through the server's /_test/call; return (kind, output text or None, row, process)."""
    body = {
        "skill": SKILL,
        "input": {"messages": [{"role": "user", "content": call_id}]},
        "params": {},
        "site": "bench",
        "timeout": timeout,
    }
    try:
        response = await http.post(
            f"{server.url}/_test/call",
            json=body,
            headers={"cookie": visitor.cookie},
            timeout=timeout + HTTP_MARGIN,
        )
    except Exception as exc:  # httpx's timeouts are lost calls; anything else is an error
        import httpx

        return ("lost" if isinstance(exc, httpx.TimeoutException) else "error"), repr(exc), "away", None
    if response.status_code != 200:
        return "error", f"HTTP {response.status_code}: {response.text[:200]}", "away", None
    where = WHERE.get(response.headers.get("x-test-wallet", ""), "away")
    process = response.headers.get("x-test-process")
    output = response.json().get("output")
    if output is None:
        return "none", None, where, process
    return "text", output.get("text"), where, process


async def _visitor_calls(
    http, servers, visitor, first, count, args, gate, tally, ledger, rng, deadline, warmup
):
    for number in range(first, first + count):
        if time.monotonic() > deadline:
            return
        server = visitor.home if args.routing == "nginx" else rng.choice(servers)
        call_id = f"soak:{visitor.index}:{number}"
        async with gate:
            started = time.perf_counter()
            kind, text, where, process = await _call(http, server, visitor, call_id, args.timeout)
            elapsed = time.perf_counter() - started
        if warmup:
            continue
        tally.by_process[process] += 1
        if kind == "text":
            tally.received[text] += 1
            if text == call_id and call_id not in ledger.wrong_wallet:
                tally.add(where, "answered", elapsed)
            else:
                tally.add(where, "misrouted")
                tally.errors.append(f"{call_id} received {text!r}")
        elif kind == "none":
            if call_id in ledger.dropped:
                tally.add(where, "none_at_drop")
            else:
                tally.add(where, "none")
                # At once (the wallet was away, or the call refused) or at the call's timeout.
                tally.rows[where]["none_waited" if elapsed >= args.timeout * 0.9 else "none_at_once"] += 1
        else:
            tally.add(where, kind)
            tally.errors.append(f"{call_id}: {kind} {text}")
        if call_id in ledger.dropped:
            try:
                await asyncio.wait_for(visitor.wallet.back.wait(), BACK_SECONDS)
            except TimeoutError:
                notes = "; ".join(visitor.wallet.activity[-4:])  # never a code, token or call content
                tally.errors.append(
                    f"wallet {visitor.index} did not come back within {BACK_SECONDS:.0f} s: {notes}"
                )


def _servers(args, workdir, env):
    from testwallet.server import DaphneServer, UvicornServer

    def make(index):
        (workdir / f"server-{index}").mkdir()
        options = {"settings_module": SETTINGS, "env": env, "workdir": workdir / f"server-{index}"}
        if index:
            options["setup_commands"] = ()  # the first one migrated the shared database
        if args.server == "daphne":
            return DaphneServer("benchmarks.soak:application", **options)
        return PatientUvicorn("benchmarks.soak:application", ws="websockets-sansio", **options)

    class PatientUvicorn(UvicornServer):
        # A client whose event loop is busy with 1,000 wallets may reuse a keep-alive
        # connection seconds after uvicorn's 5 s timeout closed it: a reset of the
        # client's own making, not a failure of the site.
        def command(self, fd):
            command = super().command(fd)
            return [*command[:-1], "--timeout-keep-alive", "120", command[-1]]

    return [make(index) for index in range(args.processes)]


def _proxy(servers, workdir):
    """Start nginx from the deployment's template in front of the servers."""
    from deploy.cluster import NginxLimits, NginxProxy

    (workdir / "static").mkdir()
    upstreams = [f"127.0.0.1:{server.port}" for server in servers]
    return NginxProxy(upstreams, workdir / "static", limits=NginxLimits(**SOAK_LIMITS)).start()


def _rss(servers):
    from benchmarks import _proc

    return [_proc.rss_kib(_proc.tree(server.process.pid)) for server in servers]


async def _soak(args, servers, proxy, pinning):
    import httpx

    rng = random.Random(args.seed)
    ledger = Ledger()
    SoakWallet = _soak_wallet_class()
    visitors = [
        Visitor(index, proxy if proxy is not None else servers[index % len(servers)])
        for index in range(args.wallets)
    ]
    dropping = set(rng.sample(range(args.wallets), round(args.wallets * args.drop)))
    # Idle connections are dropped before the servers' keep-alive timeout (uvicorn: 5 s) can close one
    # under a request we send on it: a call must not fail for a reason of the client's own making.
    limits = httpx.Limits(
        max_connections=args.concurrency + 10,
        max_keepalive_connections=args.concurrency + 10,
        keepalive_expiry=2.0,
    )
    async with httpx.AsyncClient(limits=limits, cookies=_no_cookie_jar(), timeout=60) as http:
        started = time.monotonic()
        await _gather_in_batches([_open_visitor(http, visitor) for visitor in visitors])
        for visitor in visitors:
            drop_at = rng.randrange(args.calls) if visitor.index in dropping else None
            visitor.wallet = SoakWallet(visitor.index, ledger, drop_at, random.Random(rng.random()))
        opened = await _gather_in_batches([visitor.wallet.open(visitor.link) for visitor in visitors])
        if not all(opened):
            failed = [v.wallet.activity[-1:] for v, ok in zip(visitors, opened, strict=True) if not ok]
            raise RuntimeError(f"{len(failed)} wallets were not welcomed, e.g. {failed[:3]}")
        connected = time.monotonic() - started
        gate = asyncio.Semaphore(args.concurrency)
        tally = Tally()
        never = time.monotonic() + args.time_limit
        try:
            # Warm-up: one call per wallet, not counted, before the start memory.
            await asyncio.gather(
                *(
                    _visitor_calls(http, servers, v, -1, 1, args, gate, tally, ledger, rng, never, True)
                    for v in visitors
                )
            )
            rss_start = _rss(servers)
            started = time.monotonic()
            deadline = started + args.time_limit
            await asyncio.gather(
                *(
                    _visitor_calls(
                        http, servers, v, 0, args.calls, args, gate, tally, ledger, rng, deadline, False
                    )
                    for v in visitors
                )
            )
            elapsed = time.monotonic() - started
            rss_end = _rss(servers)
        finally:
            await _gather_in_batches([visitor.wallet.close() for visitor in visitors], 200)
    wallets = {
        "dropping": len(dropping),
        "dropped": len(ledger.dropped),
        "reconnections": sum(v.wallet.connections - 1 for v in visitors),
    }
    return {
        "pinning": pinning,
        "tally": tally,
        "ledger": ledger,
        "rss_start": rss_start,
        "rss_end": rss_end,
        "elapsed": elapsed,
        "connected": connected,
        "wallets": wallets,
        "timed_out": elapsed > args.time_limit,
    }


#: Every visitor of the soak is 127.0.0.1: nginx's per-address limits must not count them as one.
SOAK_LIMITS = {
    "wallet_sockets": 65535,  # nginx's largest
    "code_rate": "100000r/s",
    "code_burst": 10**6,
    "mcp_rate": "100000r/s",
    "mcp_burst": 10**6,
    "connections": 65535,
    "post_rate": "100000r/s",
    "post_burst": 10**6,
    "wallet_open_rate": "100000r/s",
    "wallet_open_burst": 10**6,
}


async def _main(args):
    from tests.services import PostgresServer, RedisServer, ServiceMissing

    workdir = Path(tempfile.mkdtemp(prefix="byoa-soak-"))
    pinning = pin_for_servers()
    # One secret key for all the processes, as a deployment has: a session is read by any of them.
    env = {
        "BYOA_SOAK_SERVER": "1",
        "DJANGO_LOG_LEVEL": "INFO",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
    }
    postgres = None
    if args.database == "postgres":
        try:
            postgres = PostgresServer().__enter__()
        except ServiceMissing as exc:
            print(f"  {exc}: using SQLite", file=sys.stderr)
    database = "PostgreSQL" if postgres else "SQLite"
    try:
        with RedisServer(persistent=False) as redis:
            env["REDIS_URL"] = redis.url
            if postgres:
                env["DATABASE_URL"] = postgres.url
            servers = _servers(args, workdir, env)
            started, status, proxy = [], 1, None
            try:
                for server in servers:
                    started.append(server.start())
                if args.routing == "nginx":
                    proxy = _proxy(servers, workdir)
                pin_load_generator()
                result = await _soak(args, servers, proxy, pinning)
                status = report(args, result, database, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
            finally:
                if proxy is not None:
                    proxy.close()
                for index, server in enumerate(started):
                    server.stop()
                    if status:
                        print(
                            f"--- the end of process {index}'s output:\n{server.output()[-3000:]}",
                            file=sys.stderr,
                        )
    finally:
        if postgres:
            postgres.__exit__(None, None, None)
    return status


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--wallets", type=int, default=1000, help="wallets, each with its own browser session"
    )
    parser.add_argument("--calls", type=int, default=100, help="calls per wallet")
    parser.add_argument("--processes", type=int, default=2, help="server processes")
    parser.add_argument(
        "--server", choices=["uvicorn", "daphne"], default="uvicorn", help="uvicorn: as make run serves"
    )
    parser.add_argument(
        "--routing",
        choices=["nginx", "direct"],
        default="nginx",
        help="nginx: the deployment's sticky routing; direct: each call to a process at random",
    )
    parser.add_argument(
        "--database",
        choices=["postgres", "sqlite"],
        default="postgres",
        help="postgres (SQLite when it is not installed) or sqlite",
    )
    parser.add_argument(
        "--drop", type=float, default=0.1, help="the share of wallets that drop mid-call once"
    )
    parser.add_argument(
        "--concurrency", type=int, default=100, help="calls in flight at most, over all wallets"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="each call's timeout (call_wallet's), seconds"
    )
    parser.add_argument(
        "--time-limit", type=float, default=1800.0, help="seconds after which no new call is made"
    )
    parser.add_argument(
        "--rss-growth-mib", type=float, default=48.0, help="the bound on each process's RSS growth"
    )
    parser.add_argument("--seed", type=int, default=12, help="the random seed (processes, drops)")
    parser.add_argument("--quick", action="store_true", help="a sanity run: 50 wallets x 20 calls")
    args = parser.parse_args(argv)
    if args.quick:
        args.wallets, args.calls = 50, 20
    if args.processes < 1 or args.wallets < 1 or args.calls < 1:
        parser.error("--processes, --wallets and --calls must be at least 1")
    if shutil.which("redis-server") is None:
        sys.exit("redis-server is not installed (Debian: apt-get install redis-server)")
    if args.routing == "nginx" and shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        sys.exit("nginx is not installed (Debian: apt-get install nginx), or run with --routing direct")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.wallets + 4096)), hard))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    sys.exit(asyncio.run(_main(args)))


if __name__ == "__main__":
    main()
