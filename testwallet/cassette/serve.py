"""
``python -m testwallet.cassette serve``: a cassette as a loopback model server, for a test runner
that is not Python (the npm package's Playwright Test fixtures). It answers AI Wallet chats
(``/v1/wallet/chat``, the wallet's events as JSON Lines) and OpenAI chats (``/v1/chat/completions``)
through the relay's recorded answers, and takes requests only from its own clients, never from a
web page (docs/reference/commands.md; docs/explanation/security.md, "The recording server").
"""

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import FrameType
from typing import Any

from testwallet.cassette.player import Mode
from testwallet.relay import recorded, wallet
from testwallet.relay.conf import RelaySettings, environment_settings
from testwallet.relay.exceptions import RelayError

#: OpenAI's path, under the /v1 base OpenAI's clients add their paths to.
CHAT_PATH = "/v1/chat/completions"
#: The wallet's chat, answered with the wallet's events.
WALLET_CHAT_PATH = "/v1/wallet/chat"
#: The largest request body read: a chat with its tools and history, never more.
MAX_BODY_BYTES = 8 * 1024 * 1024
#: The one media type of a request body.
JSON_TYPE = "application/json"


class _Handler(BaseHTTPRequestHandler):
    """One request: its body read, answered through the relay's recorded answers."""

    server: "CassetteServer"
    # HTTP/1.0: one request per connection, and a streamed answer ends when the connection closes.
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: a request's outcome is logged only when it is a miss (testwallet.cassette's logger)

    def do_POST(self) -> None:
        refusal = self._stranger()
        if refusal:
            return self._error(403, refusal)
        path = self.path.split("?")[0]
        if path not in (CHAT_PATH, WALLET_CHAT_PATH):
            return self._error(404, f"This cassette serves POST {WALLET_CHAT_PATH} and {CHAT_PATH} only")
        media_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if media_type != JSON_TYPE:
            return self._error(415, f"A request body is {JSON_TYPE}, not {media_type or 'untyped'}")
        try:
            length = int(self.headers.get("Content-Length") or "")
        except ValueError:
            return self._error(411, "A request carries its Content-Length")
        if not 0 < length <= MAX_BODY_BYTES:
            return self._error(413, f"A request body is 1 to {MAX_BODY_BYTES} bytes")
        try:
            body = json.loads(self.rfile.read(length))
        except ValueError:
            return self._error(400, "The request body is not JSON")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return self._error(400, "A chat request is a JSON object with its messages")
        # Each request on its own loop, in its own thread: http.server's threads, asyncio's cassette.
        # A client that leaves before the answer ends is no error.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            asyncio.run(self._answer(body) if path == CHAT_PATH else self._wallet_chat(body))

    def _stranger(self) -> str:
        """
        Return why the request is not from this server's own clients, or "" when it is. A web
        page's request carries an Origin or a Sec-Fetch-Site (a no-cors POST included); a
        DNS-rebinding page's names its own host.
        """
        port = self.server.server_address[1]
        host = self.headers.get("Host") or ""
        if host not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            return f"This cassette serves Host 127.0.0.1:{port} only, not {host[:100] or 'none'}"
        if self.headers.get("Origin") is not None:
            return "This cassette serves its test runner's requests, not a web page's (an Origin came)"
        site = self.headers.get("Sec-Fetch-Site")
        if site not in (None, "none"):
            return f"This cassette serves its test runner's requests, not a web page's (Sec-Fetch-Site: {site[:40]})"
        return ""

    async def _wallet_chat(self, body: dict[str, Any]) -> None:
        try:
            events = await wallet.chat(self.server.conf, wallet.chat_params(body))
        except RelayError as error:
            return self._error(error.status, error.message)
        self.send_response(200)
        self.send_header("Content-Type", wallet.EVENTS_TYPE)
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        async for line in wallet.lines(events):
            self.wfile.write(line)
            self.wfile.flush()

    async def _answer(self, body: dict[str, Any]) -> None:
        conf = self.server.conf
        try:
            if not body.get("stream"):
                completion = await recorded.complete_chat(conf, body)
                return self._json(200, completion)
            chunks = await recorded.chat_stream(conf, body)
        except RelayError as error:
            return self._error(error.status, error.message)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        async for chunk in chunks:
            self.wfile.write(chunk)
            self.wfile.flush()

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": {"message": message, "status": status}})

    def _json(self, status: int, value: Any) -> None:
        data = json.dumps(value, ensure_ascii=False, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class CassetteServer(ThreadingHTTPServer):
    """
    The loopback server of one cassette. The standard library's http.server, not daphne or
    Django: one route for one test run, with no project, settings or database to set up.
    """

    daemon_threads = True

    def __init__(self, conf: RelaySettings, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.conf = conf

    @property
    def url(self) -> str:
        """The model URL a client names: the /v1 base."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the serve command's arguments to its parser."""
    parser.add_argument("file", help="the cassette (written there in the record modes)")
    parser.add_argument(
        "--record",
        choices=[mode.value for mode in Mode],
        default=None,
        help="none: replay only, never ask a model server (the default, or TESTWALLET_RECORD); "
        "new: replay, and record what is missing; all: record everything anew. "
        "The record modes ask TESTWALLET_MODEL_URL (TESTWALLET_MODEL, TESTWALLET_MODEL_KEY)",
    )


def main(args: argparse.Namespace) -> int:
    """Serve the cassette `args` names until told to stop; return the exit status."""
    record = Mode.named(args.record or os.environ.get("TESTWALLET_RECORD"))
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    try:
        conf = environment_settings(cassette=os.path.abspath(args.file), record=record.value)
        # The process's cassette, read now: a broken file is told at once, naming it, not on the first request.
        recorded.cassette(conf)
    except (RelayError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    server = CassetteServer(conf)

    def stop(signum: int, frame: FrameType | None) -> None:
        # Not an exception raised here: the signal may land in socketserver's request handling,
        # which catches every Exception and serves on. shutdown() waits for serve_forever to
        # end, which runs in this (the main) thread, so it is called from a thread of its own.
        threading.Thread(target=server.shutdown, daemon=True).start()

    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, stop)
    print(f"Serving {server.url}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
