"""
The server side of benchmarks/byoa_calls.py: the project's ASGI application with the
benchmark's ``/_bench/`` routes in front, served by each Python target as
``benchmarks._call_server:application`` (``BYOA_BENCH_SERVER=1``). ``/_bench/links`` issues
direct links for the load generator's wallets; ``/_bench/run`` makes the run's calls with the
site's own API (``byoa.calls.call_wallet``), as a page's view would, and returns its figures with
the collector's share.
"""

import asyncio
import json
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests/byoa/manifests/bench.json"
#: Calls in flight per wallet.
IN_FLIGHT = 4
#: The name of the wallets that stay connected and are never called (--idle).
IDLE_NAME = "idle"


def _server_application():
    """Return the project's ASGI app with the /_bench routes in front."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.byoa.server_settings")
    django.setup()
    from django.conf import settings

    # The test settings' DEBUG (for ws:// links) would record every query; links here are built directly.
    settings.DEBUG = False
    # The project's URLs: the calls need none of the end-to-end tests' views (tests.byoa.server_urls).
    settings.ROOT_URLCONF = "sites.config.urls"
    # Before the router is imported: it loads and checks the manifests.
    settings.BYOA = {
        **settings.BYOA,
        "MANIFESTS": {"bench": str(MANIFEST)},
        "DEFAULT_MANIFEST": "bench",
        "CODES_PER_ADDRESS": 10**9,
        "CODES_PER_SESSION": 10**9,
        "CALL_LOG": os.environ.get("BYOA_BENCH_CALL_LOG", "1") == "1",
    }
    from sites.config.asgi import application as project

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith("/_bench/"):
            body = json.dumps(await _bench(scope)).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await project(scope, receive, send)

    return application


async def _bench(scope):
    from urllib.parse import parse_qs

    from channels.db import database_sync_to_async

    from byoa.pairing import codes, invitations, manifests

    query = {key: values[0] for key, values in parse_qs(scope["query_string"].decode()).items()}
    if scope["path"] == "/_bench/links":
        host = dict(scope["headers"])[b"host"].decode()
        endpoint = f"ws://{host}/byoa/ws"
        manifest = manifests.get_manifest("bench")

        def issue(count):
            return [
                invitations.build(
                    endpoint,
                    manifest.encoded,
                    codes.issue(f"bench-{time.time_ns()}-{i}", "127.0.0.1", manifest)[0],
                )
                for i in range(count)
            ]

        return {"links": await database_sync_to_async(issue)(int(query["n"]))}
    if scope["path"] == "/_bench/run":
        call = json.loads(await asyncio.to_thread(Path(query["call"]).read_text))
        from benchmarks._collector import Collector

        run = _run_calls(int(query["calls"]), int(query.get("inflight", IN_FLIGHT)), call)
        if not os.environ.get("BYOA_BENCH_PROFILE"):
            with Collector() as collector:
                result = await run
            return {**result, "gc": collector.summary()}
        import cProfile  # where the server's time goes (the event loop's thread only)

        with cProfile.Profile() as profile:
            result = await run
        profile.dump_stats(f"{os.environ['BYOA_BENCH_PROFILE']}.{os.getpid()}")
        return result
    return {}


async def _run_calls(per_wallet, inflight, call):
    from benchmarks._call_runs import run_calls
    from byoa.calls import call_wallet
    from byoa.exceptions import WalletCallError
    from byoa.models import Pairing

    pairings = [
        pk
        async for pk in Pairing.objects.filter(manifest_name="bench", status="active")
        .exclude(channel_name="")
        .exclude(wallet__name=IDLE_NAME)
        .values_list("pk", flat=True)
    ]

    async def call_one(pk):
        try:
            output = await call_wallet(pk, call["skill"], call["input"], call["params"], timeout=20)
        except WalletCallError as error:  # not answered: the call's outcome, counted as a failure by its kind
            return None, type(error).__name__
        return output, None  # None counted as a failure of neither kind

    return await run_calls(pairings, per_wallet, inflight, call_one)


if os.environ.get("BYOA_BENCH_SERVER") == "1":
    application = _server_application()
