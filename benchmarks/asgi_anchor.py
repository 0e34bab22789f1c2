"""
The Python floor of benchmarks/byoa_calls.py: the Node anchor's server
(benchmarks/node/anchor.mjs, the spec's minimal server) written again as a bare
ASGI application, with no Django, Channels or byoa in it, so that uvicorn runs
it as it runs the project.

What it costs per call is what any Python site on that ASGI server pays before
a line of its own runs: the server's WebSocket framing, the event loop, a future
and a timer per call, and two JSON codings. The project's figure less this one
is what Django, Channels and byoa add; this one against Node's is what the
interpreter and the ASGI server cost against V8 and ``ws``.

It keeps only what the benchmark's wallets use: the links route, the hello and
its welcome, calls with their results, bye. No signature, grant or limit is
checked, as in the anchor.
"""

import asyncio
import base64
import json
import secrets
import time
from pathlib import Path
from urllib.parse import parse_qs, quote

import orjson  # the project's own JSON coder (byoa.wire.protocol), so the two differ in their framework only

from benchmarks._call_runs import run_calls
from benchmarks._collector import Collector

MANIFEST = Path(__file__).resolve().parent.parent / "tests/byoa/manifests/bench.json"
ENCODED = (
    base64.urlsafe_b64encode(json.dumps(json.loads(MANIFEST.read_text())).encode()).rstrip(b"=").decode()
)
IDLE_NAME = "idle"

codes: dict[str, float] = {}  # session code -> when it expires
sockets: dict[str, "Socket"] = {}  # pairing token -> its live socket


class Socket:
    """One wallet's socket: its ASGI send and the calls waiting on it."""

    def __init__(self, send) -> None:
        self.send = send
        self.pending: dict[int, asyncio.Future] = {}
        self.name = ""


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
    elif scope["type"] == "websocket":
        await _socket(receive, send)
    elif scope["type"] == "http":
        await _http(scope, send)


async def _http(scope, send) -> None:
    query = {key: values[0] for key, values in parse_qs(scope["query_string"].decode()).items()}
    body: object = {}
    if scope["path"] == "/_bench/links":
        host = dict(scope["headers"])[b"host"].decode()
        body = {"links": [_link(host) for _ in range(int(query["n"]))]}
    elif scope["path"] == "/_bench/run":
        with Collector() as collector:
            result = await _run(query)
        body = {**result, "gc": collector.summary()}
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": orjson.dumps(body)})


def _link(host: str) -> str:
    session = secrets.token_urlsafe(24)
    codes[session] = time.monotonic() + 120
    endpoint = quote(f"ws://{host}/byoa/ws", safe="")
    return f"bringyourownagent://connect?v=0.1&endpoint={endpoint}&manifest={ENCODED}&session={session}"


async def _socket(receive, send) -> None:
    socket, pairing = Socket(send), ""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            continue
        if message["type"] == "websocket.disconnect":
            break
        frame = orjson.loads(message.get("text") or b"null")
        if not isinstance(frame, dict):
            continue
        if not pairing:
            if frame.get("type") == "hello" and codes.pop(frame.get("session") or "", 0) > time.monotonic():
                pairing = secrets.token_urlsafe(32)
                socket.name = (frame.get("wallet") or {}).get("name", "")
                sockets[pairing] = socket
                reply = {"type": "welcome", "pairing": pairing, "manifest": ENCODED}
                await send({"type": "websocket.send", "text": orjson.dumps(reply).decode()})
            continue
        if frame.get("type") == "result":
            waiting = socket.pending.pop(frame.get("id"), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(frame)
        elif frame.get("type") == "bye":
            break
    for waiting in socket.pending.values():
        waiting.cancel()
    sockets.pop(pairing, None)


_next_id = 0


async def _call(socket: Socket, call: dict, seconds: float = 20) -> object:
    global _next_id
    _next_id += 1
    call_id = _next_id
    waiting = asyncio.get_running_loop().create_future()
    socket.pending[call_id] = waiting
    frame = {"type": "call", "id": call_id, **call}
    await socket.send({"type": "websocket.send", "text": orjson.dumps(frame).decode()})
    try:
        result = await asyncio.wait_for(waiting, seconds)
    except (TimeoutError, asyncio.CancelledError):
        return None
    finally:
        socket.pending.pop(call_id, None)
    output = result.get("output")
    return output if result.get("ok") and isinstance(output, dict) else None


async def _run(query: dict) -> dict:
    per_wallet, inflight = int(query["calls"]), int(query.get("inflight", 4))
    call = orjson.loads(await asyncio.to_thread(Path(query["call"]).read_bytes))
    live = [socket for socket in sockets.values() if socket.name != IDLE_NAME]

    async def call_one(socket: Socket) -> tuple[object, None]:
        return await _call(socket, call), None

    return await run_calls(live, per_wallet, inflight, call_one)
