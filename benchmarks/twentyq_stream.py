"""
Chunk-to-page latency of the Twenty Questions direct link, measured on loopback.

    .venv/bin/python benchmarks/twentyq_stream.py [--chunks 1000] [--pace-ms 2]

What it does, all on 127.0.0.1:

1. starts the project under a real daphne (testwallet.server.DaphneServer,
   settings tests.twentyq.daphne_settings: the project's own with DEBUG on, so a
   link may point at ws://127.0.0.1);
2. a visitor (httpx, its own session and CSRF token) asks for the game's link
   and a headless wallet (testwallet.direct.DirectWallet) takes it; the wallet runs
   in a process of its own, so that its burst of frames competes with neither
   the server nor the visitor's reader;
3. the visitor starts a game and POSTs /twentyq/api/stream; the wallet's
   model answers the call with ``--chunks`` one-character chunks, at once
   ("instant": as fast as the wallet can send them) and then paced
   (``--pace-ms`` between chunks, a fast model);
4. for each chunk: the time the wallet hands it to its socket, and the time the
   visitor's reader has its ``delta`` event. Both are ``time.perf_counter()``
   (CLOCK_MONOTONIC: one clock for every process of the machine). Printed:
   p50, p99 and max over the chunks, how many chunks did not arrive, and the
   daphne process's CPU time per chunk (user + system from /proc, the whole
   move included: it does not depend on what else the machine runs).

Then, with the same instant wallet answering "QUESTION: Is it alive?" in
four chunks: the time from the visitor's answer to the next question, as an
HTTP client sees it (own mode: one POST with next=own; the direct link: the
answer's POST, then the streamed move to its result). The page's own figure,
for every way in, is measured in Chromium by the page's tests.

The figure is wallet-sends -> page-has-bytes: it includes the wallet -> server
WebSocket hop, so it is an upper bound of server-receives -> page-has-bytes.
The page's own reader (fetch + TextDecoder in Chromium) is not in it. The
move itself ends with an error (1,000 x's are not a question): the relay,
not the game, is measured.
"""

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testwallet.direct.backends import Backend  # noqa: E402  (after the path: run as a script)


class TimedBackend(Backend):
    """The wallet's model: yields ``chunks`` one-character pieces and notes when each is handed over."""

    def __init__(self, chunks, pace):
        self.chunks, self.pace = chunks, pace
        self.sent = []
        self.question = None  # when set, answer each call with this question in word-sized chunks

    def skills(self):
        return {"text.generate"}

    def model_codes(self):
        return ["m1"]

    async def run(self, skill, input, params):
        return {"text": "x" * self.chunks}

    async def stream(self, skill, input, params):
        if self.question:
            for index, word in enumerate(self.question.split(" ")):
                yield word if index == 0 else " " + word
            return
        self.sent = []
        for _ in range(self.chunks):
            if self.pace:
                await asyncio.sleep(self.pace)
            self.sent.append(time.perf_counter())
            yield "x"  # the wallet sends the chunk frame as soon as this returns


def wallet_process(conn, chunks):
    """Run a DirectWallet in this (child) process: take the link, then report each move's send times."""
    sys.path.insert(0, str(ROOT))
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    django.setup()
    from testwallet.direct import DirectWallet

    async def serve():
        backend = TimedBackend(chunks, 0)
        wallet = DirectWallet(backend, dev_local=True)
        loop = asyncio.get_running_loop()
        link = await loop.run_in_executor(None, conn.recv)
        conn.send(await wallet.open(link))
        while True:
            command = await loop.run_in_executor(None, conn.recv)
            if command is None:
                break
            if command == "times":
                conn.send(backend.sent)
            elif isinstance(command, str):
                backend.question = command
                conn.send(True)
            else:
                backend.pace = command  # seconds between chunks for the next moves
                conn.send(True)
        await wallet.close()

    asyncio.run(serve())


class WalletProcess:
    """The wallet in a process of its own: its burst of frames competes with neither the server nor the reader.

    time.perf_counter() is CLOCK_MONOTONIC on Linux: one clock for every process of the machine.
    """

    def __init__(self, chunks):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=wallet_process, args=(child, chunks), daemon=True)
        self.process.start()

    def open(self, link):
        self.conn.send(link)
        if not self.conn.poll(30) or not self.conn.recv():
            raise SystemExit("the wallet did not connect")

    def ask(self, command):
        self.conn.send(command)
        return self.conn.recv()

    def close(self):
        self.conn.send(None)
        self.process.join(10)


def server_cpu_seconds(pid):
    """Return the user + system CPU seconds a process has used (Linux /proc)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one_move(http, headers, wallet):
    """Stream one move; return (latencies in ms, chunks received)."""
    await http.post("/twentyq/api/new", json={"mode": "ai-asks"}, headers=headers)
    received = []
    event = None
    async with http.stream("POST", "/twentyq/api/stream", json={}, headers=headers) as response:
        assert response.status_code == 200, response.status_code
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "delta":
                received.append(time.perf_counter())
    # Not strict: chunks that never arrived are told by the count, the second value.
    latencies = [(got - sent) * 1000 for sent, got in zip(wallet.ask("times"), received, strict=False)]
    return latencies, len(received)


async def answer_to_next_question(http, headers, wallet, moves):
    """Return ms from the visitor's answer to the next question, own mode and over the link."""
    own, link = [], []
    wallet.ask("QUESTION: Is it alive?")
    game = (
        await http.post("/twentyq/api/new", json={"mode": "ai-asks", "next": "own"}, headers=headers)
    ).json()["game"]
    for _ in range(moves):
        if game["status"] != "playing" or game["pending"]["kind"] != "question":
            game = (
                await http.post("/twentyq/api/new", json={"mode": "ai-asks", "next": "own"}, headers=headers)
            ).json()["game"]
        started = time.perf_counter()
        body = {"turn": game["pending"]["turn"], "answer": "unknown", "next": "own"}
        game = (await http.post("/twentyq/api/answer", json=body, headers=headers)).json()["game"]
        own.append((time.perf_counter() - started) * 1000)
    game = (await http.post("/twentyq/api/new", json={"mode": "ai-asks"}, headers=headers)).json()["game"]
    async with http.stream("POST", "/twentyq/api/stream", json={}, headers=headers) as response:
        await response.aread()
    for _ in range(min(moves, 18)):  # turn 20 must be a guess
        pending = (await http.get("/twentyq/api/state")).json()["game"]["pending"]
        started = time.perf_counter()
        await http.post(
            "/twentyq/api/answer", json={"turn": pending["turn"], "answer": "no"}, headers=headers
        )
        async with http.stream("POST", "/twentyq/api/stream", json={}, headers=headers) as response:
            last = (await response.aread()).decode().rsplit("event: ", 1)[1]
        link.append((time.perf_counter() - started) * 1000)
        assert last.startswith("result"), last[:200]
    wallet.ask("")
    return own, link


def report(name, latencies, received, chunks, cpu):
    ordered = sorted(latencies)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    print(
        f"{name:<22} chunks {received:>5}/{chunks}  p50 {p(0.50):7.3f} ms  p99 {p(0.99):7.3f} ms  "
        f"max {ordered[-1]:7.3f} ms  server CPU {cpu * 1e6 / max(received, 1):5.0f} us/chunk"
    )


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--pace-ms", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    import httpx

    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="sites.config.settings",
        env={"DJANGO_DEBUG": "1"},  # links to ws://127.0.0.1 only in DEBUG; calls bounded by the default 20 s
        workdir=tempfile.mkdtemp(prefix="twentyq-bench-"),
    )
    with server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            await http.get("/twentyq/")
            headers = {"x-csrftoken": http.cookies["csrftoken"]}
            answer = await http.post("/byoa/code", json={"manifest": "twentyq"}, headers=headers)
            wallet = WalletProcess(args.chunks)
            wallet.open(answer.json()["link"])
            try:
                print(
                    f"Twenty Questions direct link, {args.chunks} chunks per move, wallet-send -> client-has-event"
                )
                await one_move(http, headers, wallet)  # warm-up: imports, first session writes
                for pace, name in ((0, "instant"), (args.pace_ms / 1000, f"paced {args.pace_ms:g} ms")):
                    wallet.ask(pace)
                    for run in range(1, args.runs + 1):
                        cpu = server_cpu_seconds(server.process.pid)
                        latencies, received = await one_move(http, headers, wallet)
                        cpu = server_cpu_seconds(server.process.pid) - cpu
                        report(f"{name} (run {run})", latencies, received, args.chunks, cpu)
                own, link = await answer_to_next_question(http, headers, wallet, 19)
                print("answer -> next question (HTTP client, no browser):")
                for name, times in (("own mode", own), ("direct link", link)):
                    times.sort()
                    print(
                        f"  {name:<12} p50 {times[len(times) // 2]:7.2f} ms"
                        f"  max {times[-1]:7.2f} ms  ({len(times)} moves)"
                    )
            finally:
                wallet.close()


if __name__ == "__main__":
    asyncio.run(main())
