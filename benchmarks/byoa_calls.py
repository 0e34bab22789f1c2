"""
Server -> wallet calls over the BYOA direct link, measured on loopback.

    .venv/bin/python benchmarks/byoa_calls.py [--seconds 3] [--idle 1000] [--wallets 1,10,100]

What it does, all on 127.0.0.1:

1. starts the project under a real daphne (testwallet.server.DaphneServer) with
   a benchmark manifest and, in that process, one extra HTTP route, ``/_bench``,
   that issues codes and runs calls with ``byoa.calls.call_wallet`` — the same
   API a site's view uses — so the caller and the consumer share one process
   and one in-memory channel layer, as on a one-machine deployment;
2. for W = 1, 10, 100 headless wallets (``byoa.wallet.DirectWallet`` with an
   instant scripted backend) the server keeps up to 4 calls in flight per
   wallet for ``--seconds``: calls per second, p50 and p99 latency (measured in
   the server around ``call_wallet``), and the server's CPU time per call
   (user + system from /proc, before and after the run);
3. connects ``--idle`` bare wallets (hello, welcome, then nothing) and reports
   the server's resident memory per idle wallet (VmRSS before and after).

The spec's sample server (Node.js + ws) spends 20-24 us of CPU per call and
about 16 KiB per idle wallet on these machines; the ratios are printed.
The wallets run in this process and compete with the server for the CPUs, so
calls per second is a floor; CPU per call is the server's own.
"""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_CPU_US = (20, 24)
REFERENCE_IDLE_KIB = 16
IN_FLIGHT = 4


# -- the server side: runs inside daphne ---------------------------------------------


def _server_application():
    """Return the project's ASGI app with the /_bench route in front (in the daphne process)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.byoa.live_settings")
    django.setup()
    from django.conf import settings

    # Before the router is imported: it loads and checks the manifests.
    settings.BYOA = {
        **settings.BYOA,
        "MANIFESTS": {"bench": str(ROOT / "tests/byoa/manifests/bench.json")},
        "DEFAULT_MANIFEST": "bench",
        "CODES_PER_ADDRESS": 10**9,
        "CODES_PER_SESSION": 10**9,
        "CALL_LOG": os.environ.get("BYOA_BENCH_CALL_LOG", "1") == "1",
    }
    from sites.config.asgi import application as project

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith("/_bench/"):
            body = json.dumps(await _bench(scope)).encode()
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        await project(scope, receive, send)

    return application


async def _bench(scope):
    from urllib.parse import parse_qs

    from channels.db import database_sync_to_async

    from byoa import codes, links, manifests

    query = {key: values[0] for key, values in parse_qs(scope["query_string"].decode()).items()}
    if scope["path"] == "/_bench/links":
        endpoint = f"ws://127.0.0.1:{scope['server'][1]}/byoa/ws"
        manifest = manifests.get("bench")

        def issue(count):
            return [
                links.build(endpoint, manifest.encoded, codes.issue(f"bench-{time.time_ns()}-{i}", "127.0.0.1", manifest)[0])
                for i in range(count)
            ]

        return {"links": await database_sync_to_async(issue)(int(query["n"]))}
    if scope["path"] == "/_bench/run":
        return await _run_calls(float(query["seconds"]))
    return {}


async def _run_calls(seconds):
    import asyncio

    from byoa.calls import call_wallet
    from byoa.models import Pairing

    pairings = [p async for p in Pairing.objects.filter(site="bench", status="active").exclude(channel_name="")]
    latencies, failures = [], 0
    clip = {"audio": {"mime": "audio/wav", "base64": _CLIP}}
    deadline = time.perf_counter() + seconds

    async def worker(pairing):
        nonlocal failures
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            output = await call_wallet(pairing, "audio.transcribe", clip, {"language": "en"}, timeout=10)
            if output is None:
                failures += 1
            else:
                latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(worker(p) for p in pairings for _ in range(IN_FLIGHT)))
    elapsed = time.perf_counter() - started
    latencies.sort()

    def percentile(q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else None

    return {
        "wallets": len(pairings),
        "calls": len(latencies),
        "failures": failures,
        "elapsed": elapsed,
        "p50": percentile(0.50),
        "p99": percentile(0.99),
    }


def _clip():
    import base64

    from byoa.wallet.wav import silent_clip

    return base64.b64encode(silent_clip(0.25)).decode()


if os.environ.get("BYOA_BENCH_SERVER") == "1":
    _CLIP = _clip()
    application = _server_application()


# -- the driver: this process ----------------------------------------------------------


def _proc_cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def _links(http, count):
    response = await http.get("/_bench/links", params={"n": count})
    return response.json()["links"]


async def _measure_calls(server, http, wallet_count, seconds):
    from byoa.wallet import DirectWallet, ScriptedBackend

    wallets = []
    for link in await _links(http, wallet_count):
        wallet = DirectWallet(ScriptedBackend({"audio.transcribe": {"text": "Peru"}}), dev_local=True)
        if not await wallet.open(link):
            raise RuntimeError(f"a wallet was not welcomed: {wallet.activity}")
        wallets.append(wallet)
    try:
        cpu_before = _proc_cpu_seconds(server.process.pid)
        result = (await http.get("/_bench/run", params={"seconds": seconds}, timeout=seconds + 60)).json()
        cpu = _proc_cpu_seconds(server.process.pid) - cpu_before
    finally:
        for wallet in wallets:
            await wallet.close()
    result["server_cpu_per_call_us"] = cpu / max(1, result["calls"]) * 1e6
    return result


async def _measure_idle(server, http, count):
    import websockets
    from websockets.asyncio.client import connect

    from byoa import protocol

    grant = {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z"}
    sockets = []

    async def connect_one(link):
        from urllib.parse import parse_qsl, urlsplit

        code = dict(parse_qsl(urlsplit(link).query))["session"]
        ws = await connect(f"{server.ws_url}/byoa/ws", compression=None, ping_interval=None)
        await ws.send(protocol.dump(protocol.hello(code, None, {"name": "bench"}, grant)))
        assert json.loads(await ws.recv())["type"] == "welcome"
        sockets.append(ws)

    links = await _links(http, count + 10)
    for link in links[:10]:  # warm up every code path before the baseline
        await connect_one(link)
    rss_before = _proc_rss_kib(server.process.pid)
    import asyncio

    for start in range(10, len(links), 50):
        await asyncio.gather(*(connect_one(link) for link in links[start : start + 50]))
    await asyncio.sleep(1)  # let the server settle its allocations (measurement, not a test wait)
    rss_after = _proc_rss_kib(server.process.pid)
    for ws in sockets:
        try:
            await ws.close()
        except websockets.ConnectionClosed:
            pass
    return {"connected": len(sockets) - 10, "rss_before_kib": rss_before, "rss_after_kib": rss_after,
            "per_wallet_kib": (rss_after - rss_before) / max(1, len(sockets) - 10)}


async def _main(args):
    import httpx

    from testwallet.server import DaphneServer

    server = DaphneServer(
        "benchmarks.byoa_calls:application",
        settings_module="tests.byoa.live_settings",
        env={"BYOA_BENCH_SERVER": "1", "BYOA_BENCH_CALL_LOG": "1" if args.call_log else "0", "DJANGO_LOG_LEVEL": "WARNING"},
    )
    with server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            print(f"BYOA server -> wallet calls, daphne on loopback, {os.cpu_count()} CPUs, "
                  f"{IN_FLIGHT} calls in flight per wallet, {args.seconds:g} s per run, call log {'on' if args.call_log else 'off'}")
            print(f"{'W':>5} {'calls':>8} {'calls/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'fail':>5} {'CPU us/call':>12} {'x ref':>9}")
            for count in args.wallets:
                r = await _measure_calls(server, http, count, args.seconds)
                rate = r["calls"] / r["elapsed"]
                cpu = r["server_cpu_per_call_us"]
                ratio = f"{cpu / REFERENCE_CPU_US[1]:.1f}-{cpu / REFERENCE_CPU_US[0]:.1f}"
                print(f"{r['wallets']:>5} {r['calls']:>8} {rate:>9.0f} {r['p50'] * 1e3:>8.2f} {r['p99'] * 1e3:>8.2f} "
                      f"{r['failures']:>5} {cpu:>12.0f} {ratio:>9}")
            if args.idle:
                idle = await _measure_idle(server, http, args.idle)
                print(f"idle wallets: {idle['connected']} connected, server RSS {idle['rss_before_kib']} -> "
                      f"{idle['rss_after_kib']} KiB: {idle['per_wallet_kib']:.1f} KiB per wallet "
                      f"(x{idle['per_wallet_kib'] / REFERENCE_IDLE_KIB:.1f} the reference {REFERENCE_IDLE_KIB} KiB)")
            print(f"reference: the spec's Node.js + ws sample server, {REFERENCE_CPU_US[0]}-{REFERENCE_CPU_US[1]} us "
                  f"CPU per call, ~{REFERENCE_IDLE_KIB} KiB per idle wallet")


def main(argv=None):
    import argparse
    import asyncio
    import resource

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each call run (bounded)")
    parser.add_argument("--wallets", default="1,10,100", help="comma-separated wallet counts")
    parser.add_argument("--idle", type=int, default=1000, help="idle wallets for the memory figure (0: skip)")
    parser.add_argument("--no-call-log", dest="call_log", action="store_false", help="BYOA['CALL_LOG'] = False")
    args = parser.parse_args(argv)
    args.wallets = [int(w) for w in args.wallets.split(",")]
    args.seconds = min(args.seconds, 60.0)
    args.idle = min(args.idle, 5000)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.idle + 1024)), hard))
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.byoa.live_settings")
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
