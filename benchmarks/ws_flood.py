"""
A wallet socket that floods its server (issue 40, item 1): while 1 (or 8)
sockets send 4 MiB frames as fast as they can, how long do other requests to
that process take, how much CPU does it spend, and does its memory come back?

    .venv/bin/python benchmarks/ws_flood.py [--sockets 1] [--seconds 12] [--before-hello | --paired]
        [--direct] [--server uvicorn|daphne]

The site: one process as the cluster runs it (uvicorn, websockets-sansio,
uvloop and httptools when installed; ``--server daphne`` for ``make run``'s
fallback) with tests/byoa/server_settings.py, behind nginx from
deploy/nginx.conf.template (``--direct``: no proxy). The flooders run in a
process of their own: each opens the wallet route and sends 4 MiB text frames
back to back, before any hello (the default) or after pairing
(``--paired``), and opens a new socket whenever the server closes the last.
This process meanwhile asks for a page (``GET /_test/page``) every 100 ms
and keeps each answer's time.

Printed: the page requests' median, 99th percentile and worst time during the
flood, how many frames were sent and sockets opened, the server's CPU seconds,
and its resident memory before, at its peak and 5 s after the flood.
"""

import argparse
import asyncio
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

SETTINGS = "tests.byoa.server_settings"
FOUR_MIB = 4 * 1024 * 1024
PAD = '{"type":"ping","pad":"'


def _flood(url, base, sockets, seconds, paired, counts):
    asyncio.run(_flood_async(url, base, sockets, seconds, paired, counts))


async def _flood_async(ws_url, base, sockets, seconds, paired, counts):
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    frame = PAD + "x" * (FOUR_MIB - len(PAD) - 2) + '"}'
    end = time.monotonic() + seconds

    async def hello_text(http):
        # A paired socket: a code for a browser session of its own, then the wallet's hello.
        from byoa.protocol import hello  # Django-free, as a wallet imports it

        grant = {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z"}
        await http.get("/_test/page")
        answer = await http.post("/byoa/code", headers={"x-csrftoken": http.cookies["csrftoken"]})
        from urllib.parse import parse_qsl, urlsplit

        code = dict(parse_qsl(urlsplit(answer.json()["link"]).query))["session"]
        return json.dumps(hello(code, None, {"name": "flood"}, grant))

    async def one(index):
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while time.monotonic() < end:
                try:
                    async with connect(f"{ws_url}/byoa/ws", max_size=FOUR_MIB, compression=None) as ws:
                        counts["sockets"] += 1
                        if paired:
                            await ws.send(await hello_text(http))
                            await ws.recv()
                        while time.monotonic() < end:
                            await ws.send(frame)
                            counts["frames"] += 1
                except (ConnectionClosed, InvalidStatus, OSError):
                    counts["refused"] += 1
                    await asyncio.sleep(0.01)  # a reconnecting attacker, not a busy loop

    await asyncio.gather(*(one(index) for index in range(sockets)))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--paired", action="store_true", help="flood after a valid hello")
    parser.add_argument("--direct", action="store_true", help="no nginx in front")
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    args = parser.parse_args()

    import httpx

    from testwallet.server import DaphneServer, UvicornServer

    workdir = Path(tempfile.mkdtemp(prefix="ws-flood-"))
    options = {"settings_module": SETTINGS, "workdir": workdir}
    if args.server == "daphne":
        server = DaphneServer("sites.config.asgi:application", **options)
    else:
        server = UvicornServer("sites.config.asgi:application", ws="websockets-sansio", **options)
    with server:
        proxy = None
        base = server.url
        if not args.direct:
            from deploy.cluster import NginxProxy

            (workdir / "static").mkdir()
            proxy = NginxProxy([f"127.0.0.1:{server.port}"], workdir / "static").start()
            base = proxy.url
        try:
            _run(args, server, base, httpx)
        finally:
            if proxy is not None:
                proxy.close()


def _run(args, server, base, httpx):
    pids = _proc.tree(server.process.pid)
    ws_url = base.replace("http://", "ws://")
    with httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(20):  # warm
            http.get("/_test/page")
        rss_before = _proc.rss_kib(pids)
        cpu_before = _proc.cpu_seconds(pids)
        counts = multiprocessing.Manager().dict(sockets=0, frames=0, refused=0)
        flooder = multiprocessing.Process(
            target=_flood, args=(ws_url, base, args.sockets, args.seconds, args.paired, counts)
        )
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
        cpu = _proc.cpu_seconds(pids) - cpu_before
        settle = time.monotonic() + 5
        while time.monotonic() < settle:
            http.get("/_test/page")
            peak = max(peak, _proc.rss_kib(pids))
            time.sleep(0.2)
        rss_after = _proc.rss_kib(pids)
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
    print(f"  server CPU during the flood: {cpu:.1f} s")
    print(
        f"  server RSS: before {rss_before / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB,"
        f" 5 s after {rss_after / 1024:.0f} MiB (+{(rss_after - rss_before) / 1024:.0f} MiB)"
    )


if __name__ == "__main__":
    main()
