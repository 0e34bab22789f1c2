"""
A wallet socket that floods its server (issue 40, item 1): while 1 (or 8)
sockets send 4 MiB frames as fast as they can, how long do other requests to
that process take, how much CPU does it spend, and does its memory come back?

    .venv/bin/python benchmarks/ws_flood.py [--sockets 1] [--seconds 12] [--paired]
        [--direct] [--server uvicorn|daphne] [--probe [--stacks 3]]

The site: one process as the cluster runs it (uvicorn, websockets-sansio,
uvloop and httptools when installed; ``--server daphne`` for ``make run``'s
fallback; DEBUG off and no WhiteNoise, as deploy.cluster runs it, with the
end-to-end tests' page and caller: benchmarks/_flood_settings.py; SQLite, not
the cluster's PostgreSQL), behind nginx from deploy/nginx.conf.template with its
production limits (``--direct``: no proxy). ``--sockets 0`` is the control: no
flood. The flooders run in a process of their own: each opens the wallet route
and sends 4 MiB text frames back to back, before any hello (the default) or
after pairing (``--paired``), and opens a new socket whenever the server closes
the last. A paired flooder asks for one link code (within the site's code rate
limits, waiting 2 s after a refusal, never past them), and comes back with its
pairing token after each close, as a wallet does. This process meanwhile asks
for a page (``GET /_test/page``) every 100 ms and keeps each answer's time.

Printed: the page requests' median, 99th percentile and worst time during the
flood, how many frames were sent and sockets opened (and pairings, codes
refused), the server's CPU seconds, and its resident memory before, at its peak
and 5 s after the flood. With ``--probe`` the server runs
benchmarks/_loop_probe.py's application: how late its event loop ran, its page
requests' time inside the server, the garbage collector's passes, and where the
loop's thread was while the loop was late.
"""

import argparse
import asyncio
import collections
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _proc

SETTINGS = "benchmarks._flood_settings"  # DEBUG off, as deployed
PROBED = "benchmarks._loop_probe:application"
FOUR_MIB = 4 * 1024 * 1024
PAD = '{"type":"ping","pad":"'


def _flood(url, base, sockets, seconds, paired, counts):
    asyncio.run(_flood_async(url, base, sockets, seconds, paired, counts))


async def _flood_async(ws_url, base, sockets, seconds, paired, counts):
    from urllib.parse import parse_qsl, urlsplit

    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    frame = PAD + "x" * (FOUR_MIB - len(PAD) - 2) + '"}'
    end = time.monotonic() + seconds
    # Django-free, as a wallet imports it
    from byoa.wire.protocol import hello

    grant = {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z"}
    wallet = {"name": "flood"}

    async def code_of(http):
        # A link's code for a browser session of its own. Codes are rate limited (nginx's
        # `codes` zone, byoa's CODES_PER_ADDRESS): a refusal is waited out, never forced.
        while time.monotonic() < end:
            await http.get("/_test/page")
            answer = await http.post("/byoa/code", headers={"x-csrftoken": http.cookies["csrftoken"]})
            if answer.status_code == 200:
                link = answer.json()["link"]
                return dict(parse_qsl(urlsplit(link).query))["session"]
            counts["codes_refused"] += 1
            await asyncio.sleep(2)
        return None

    async def one(index):
        # Each socket pairs once with a code, then comes back with its pairing token, as a
        # wallet does after a close: a flooder needs one code, not one per connection.
        token = None
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while time.monotonic() < end:
                try:
                    if paired and token is None:
                        code = await code_of(http)
                        if code is None:
                            return
                    async with connect(f"{ws_url}/byoa/ws", max_size=FOUR_MIB, compression=None) as ws:
                        counts["sockets"] += 1
                        if paired:
                            said = (
                                hello(None, token, wallet, grant)
                                if token
                                else hello(code, None, wallet, grant)
                            )
                            await ws.send(json.dumps(said))
                            try:
                                welcome = json.loads(await ws.recv())
                            except ConnectionClosed:
                                # Closed at its hello (4009: came back too soon after a flood).
                                counts["closed_at_hello"] += 1
                                raise
                            if welcome.get("type") != "welcome":
                                counts["hellos_refused"] += 1
                                token = None
                                continue
                            counts["pairings" if token is None else "resumed"] += 1
                            token = welcome["pairing"]
                        while time.monotonic() < end:
                            await ws.send(frame)
                            counts["frames"] += 1
                except (ConnectionClosed, InvalidStatus, OSError):
                    counts["refused"] += 1
                    await asyncio.sleep(0.01)  # a reconnecting attacker, not a busy loop

    await asyncio.gather(*(one(index) for index in range(sockets)))


def _wait_for_a_newer_write(path: Path, *, than: float, bound: float) -> None:
    """Wait, at most ``bound`` seconds, until ``path`` was written after ``than`` (the probe writes
    its file twice a second: the last write then holds the flood's end)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_mtime > than:
            return
        time.sleep(0.05)


def _probe_summary(figures, since, until):
    """Return the figures of benchmarks/_loop_probe.py between two wall-clock times."""
    lags = sorted(lag for at, lag in figures["lags"] if since <= at <= until)
    pauses = [pause for at, pause in figures["gc_pauses"] if since <= at <= until]
    wakeups = sorted(waited for at, waited in figures["wakeups"] if since <= at <= until)
    requests = sorted(took for at, took, _ in figures["requests"] if since <= at <= until)
    first_receive = sorted(read for at, _, read in figures["requests"] if since <= at <= until)
    stacks = collections.Counter(where for at, where in figures["stacks"] if since <= at <= until)
    slow = collections.Counter(where for at, where in figures["slow"] if since <= at <= until)
    return {
        "lag_max": lags[-1] if lags else 0.0,
        "lag_p99": lags[int(len(lags) * 0.99)] if lags else 0.0,
        "lags_over_100ms": sum(lag > 0.1 for lag in lags),
        "lags_over_500ms": sum(lag > 0.5 for lag in lags),
        "wakeup_max": wakeups[-1] if wakeups else 0.0,
        "wakeup_p99": wakeups[int(len(wakeups) * 0.99)] if wakeups else 0.0,
        "gc_passes": len(pauses),
        "gc_max": max(pauses, default=0.0),
        "gc_total": sum(pauses),
        "requests": len(requests),
        "request_median": requests[len(requests) // 2] if requests else 0.0,
        "request_max": requests[-1] if requests else 0.0,
        "first_receive_max": first_receive[-1] if first_receive else 0.0,
        "stacks": stacks.most_common(),
        "slow": slow.most_common(),
    }


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--paired", action="store_true", help="flood after a valid hello")
    parser.add_argument("--direct", action="store_true", help="no nginx in front")
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    parser.add_argument(
        "--stacks", type=int, default=3, help="with --probe: how many blocking stacks to print"
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="serve benchmarks/_loop_probe.py's application: print how late the loop ran, and where it was",
    )
    args = parser.parse_args()

    import httpx

    from testwallet.server import DaphneServer, UvicornServer

    workdir = Path(tempfile.mkdtemp(prefix="ws-flood-"))
    probe_file = workdir / "loop-probe.json"
    # As deploy.cluster runs each process: nginx serves /static/, so no WhiteNoise (a sync-only
    # middleware: each page request would hop from the loop to a thread and back once more).
    # glibc's fixed mmap threshold too (deploy.cluster.MALLOC_ENV).
    from deploy.cluster import MALLOC_ENV

    env = {"LOOP_PROBE_FILE": str(probe_file), "DJANGO_SERVE_STATIC": "0", **MALLOC_ENV}
    options = {"settings_module": SETTINGS, "workdir": workdir, "env": env}
    application = PROBED if args.probe else "sites.config.asgi:application"
    if args.server == "daphne":
        server = DaphneServer(application, **options)
    else:
        server = UvicornServer(application, ws="websockets-sansio", **options)
    with server:
        proxy = None
        base = server.url
        if not args.direct:
            from deploy.cluster import NginxProxy

            (workdir / "static").mkdir()
            proxy = NginxProxy([f"127.0.0.1:{server.port}"], workdir / "static").start()
            base = proxy.url
        try:
            _run(args, server, base, httpx, probe_file)
        finally:
            if proxy is not None:
                proxy.close()


def _run(args, server, base, httpx, probe_file):
    pids = _proc.tree(server.process.pid)
    ws_url = base.replace("http://", "ws://")
    with httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(20):  # warm
            http.get("/_test/page")
        rss_before = _proc.rss_kib(pids)
        cpu_before = _proc.cpu_seconds(pids)
        counts = multiprocessing.Manager().dict(
            sockets=0,
            frames=0,
            refused=0,
            pairings=0,
            resumed=0,
            codes_refused=0,
            hellos_refused=0,
            closed_at_hello=0,
        )
        flooder = multiprocessing.Process(
            target=_flood, args=(ws_url, base, args.sockets, args.seconds, args.paired, counts)
        )
        flood_started = time.time()
        flooder.start()
        times, peak = [], rss_before
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            started = time.monotonic()
            http.get("/_test/page")
            times.append(time.monotonic() - started)
            peak = max(peak, _proc.rss_kib(pids))
            time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))
        flooder.join(60)
        flood_ended = time.time()
        cpu = _proc.cpu_seconds(pids) - cpu_before
        settle = time.monotonic() + 5
        while time.monotonic() < settle:
            http.get("/_test/page")
            peak = max(peak, _proc.rss_kib(pids))
            time.sleep(0.2)
        rss_after = _proc.rss_kib(pids)
        probe = None
        if args.probe:
            _wait_for_a_newer_write(probe_file, than=time.time(), bound=2.0)
            probe = _probe_summary(json.loads(probe_file.read_text()), flood_started, flood_ended)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    where = "direct" if args.direct else "through nginx"
    mode = "after a hello" if args.paired else "before any hello"
    print(
        f"{args.server}, {where}: {args.sockets} socket(s) sending 4 MiB frames {mode} for {args.seconds:g} s"
    )
    print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPU(s)")
    print(
        f"  frames sent {counts['frames']}, sockets opened {counts['sockets']}, refused/closed {counts['refused']}"
    )
    print(
        f"  page requests during the flood: {len(times)}, median {statistics.median(times) * 1000:.0f} ms,"
        f" p99 {p99 * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms"
    )
    if args.paired:
        print(
            f"  paired with a code {counts['pairings']}, came back with the token {counts['resumed']},"
            f" codes refused (rate limits, waited 2 s each) {counts['codes_refused']},"
            f" hellos refused {counts['hellos_refused']}, sockets closed at their hello {counts['closed_at_hello']}"
        )
    print(f"  server CPU during the flood: {cpu:.1f} s")
    print(
        f"  server RSS: before {rss_before / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB,"
        f" 5 s after {rss_after / 1024:.0f} MiB (+{(rss_after - rss_before) / 1024:.0f} MiB)"
    )
    if probe is not None:
        print(
            f"  server's event loop (a 20 ms timer): late by p99 {probe['lag_p99'] * 1000:.0f} ms,"
            f" worst {probe['lag_max'] * 1000:.0f} ms; {probe['lags_over_100ms']} ticks over 100 ms,"
            f" {probe['lags_over_500ms']} over 500 ms; a callback from a thread waited p99"
            f" {probe['wakeup_p99'] * 1000:.0f} ms, worst {probe['wakeup_max'] * 1000:.0f} ms"
        )
        print(
            f"  page requests inside the server (to the response's start): {probe['requests']},"
            f" median {probe['request_median'] * 1000:.0f} ms, worst {probe['request_max'] * 1000:.0f} ms;"
            f" worst wait for its first receive() {probe['first_receive_max'] * 1000:.0f} ms"
        )
        print(
            f"  garbage collector on the loop: {probe['gc_passes']} passes,"
            f" worst {probe['gc_max'] * 1000:.0f} ms, {probe['gc_total'] * 1000:.0f} ms in all"
        )
        for stack, samples in probe["stacks"][: args.stacks]:
            print(f"  loop blocked ({samples} samples of 50 ms) in:")
            print("    " + stack.rstrip().replace("\n", "\n    "))
        for stack, samples in probe["slow"][: args.stacks]:
            print(f"  while a request waited over 200 ms, a thread was ({samples} samples) in:")
            print("    " + stack.rstrip().replace("\n", "\n    "))


if __name__ == "__main__":
    main()
