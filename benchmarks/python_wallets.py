"""
The load generator of benchmarks/byoa_calls.py in Python (``--load python``):
headless wallets written from the BYOA spec on the ``websockets`` library, that
answer every call at once, speaking the same commands on stdin as
benchmarks/node/wallets.mjs (one JSON object a line, one line back):

    {"open": [link, ...], "name": "idle"?}  a wallet per link -> {"opened": n}
    {"close": true}                          say bye, close all -> {"closed": n}

Why a second one: a server's CPU per call depends on how its wallets' frames
arrive (how many a read brings, how its writes are spaced), and Node's ``ws``
and Python's asyncio space them differently; measuring with both says how much
of a figure is the load generator's.
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.client import connect

GRANT = {"skills": ["audio.transcribe", "text.generate"], "expiresAt": "2099-01-01T00:00:00Z"}
RESULT_TAIL = ',"ok":true,"output":{"text":"Peru"},"receipt":{"cost":"0.000 USD","provider":"local"}}'
PING_SECONDS = 30  # a wallet pings every 30 s (the BYOA spec); a silent one is closed after 45 s


async def wallet(link: str, name: str, opened: asyncio.Future) -> None:
    """Connect for one link, say hello, and answer every call until closed."""
    query = {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}
    async with connect(query["endpoint"], compression=None, max_size=4 * 1024 * 1024) as socket:
        hello = {"type": "hello", "v": "0.1", "session": query["session"], "pairing": None}
        await socket.send(json.dumps({**hello, "wallet": {"name": name, "version": "0.1"}, "grant": GRANT}))
        pinging = asyncio.ensure_future(ping(socket))
        try:
            async for text in socket:
                if text.startswith('{"type":"call"'):  # answered without parsing the whole call
                    call_id = text.split('"id":', 1)[1].split(",", 1)[0].split("}", 1)[0]
                    await socket.send(f'{{"type":"result","id":{call_id}{RESULT_TAIL}')
                    continue
                frame = json.loads(text)
                if frame.get("type") == "welcome" and not opened.done():
                    opened.set_result(socket)
                elif frame.get("type") == "call":
                    await socket.send(f'{{"type":"result","id":{frame["id"]}{RESULT_TAIL}')
                elif frame.get("type") == "error" and not opened.done():
                    opened.set_exception(RuntimeError(frame.get("code")))
        finally:
            pinging.cancel()
    if not opened.done():
        opened.set_exception(RuntimeError("closed before its welcome"))


async def ping(socket) -> None:
    while True:
        await asyncio.sleep(PING_SECONDS)
        await socket.send('{"type":"ping"}')


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    sockets, tasks = [], []
    while line := await reader.readline():
        command = json.loads(line)
        if command.get("open"):
            links = command["open"]
            for start in range(0, len(links), 50):
                batch = []
                for link in links[start : start + 50]:
                    opened = loop.create_future()
                    tasks.append(
                        asyncio.ensure_future(wallet(link, command.get("name") or "bench wallet", opened))
                    )
                    batch.append(opened)
                sockets += await asyncio.gather(*batch)
            print(json.dumps({"opened": len(sockets)}), flush=True)
        elif command.get("close"):
            closing, sockets = sockets, []
            await asyncio.gather(
                *(socket.send('{"type":"bye"}') for socket in closing), return_exceptions=True
            )
            await asyncio.gather(*(socket.close() for socket in closing), return_exceptions=True)
            print(json.dumps({"closed": len(closing)}), flush=True)
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
