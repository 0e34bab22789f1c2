"""
A fake OpenAI-compatible model server for the relay's tests, and the daphne
servers that point at it.

``ModelDouble`` serves ``/v1/chat/completions`` (streamed and not) and
``/v1/audio/transcriptions`` on a loopback port bound before it starts, and
records every request. A test queues what it answers: text (streamed a word at
a time), tool calls, an error status, or a held answer that comes only when the
test releases it (a slow model).
"""

import json
import queue
import re
import select
import socket
import threading
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from testwallet.server import DaphneServer

#: How long a held answer waits for the test before it gives up on its own.
HOLD_BOUND_SECONDS = 30
#: The servers' database: the bookshop's catalog loaded.
SETUP = (("migrate", "--noinput"), ("load_catalog",))
#: What the double's model is called.
MODEL = "double-model"


@dataclass
class Reply:
    """One answer of the double: text, tool calls (name, arguments), an error, or a hold."""

    text: str = ""
    tool_calls: list = field(default_factory=list)
    status: int = 200
    error: str = ""
    held: threading.Event | None = None
    hold_after: int | None = None  # stream this many text deltas, then wait for `mid`
    mid: threading.Event | None = None


class ModelDouble:
    """The fake model server; use it as a context manager."""

    def __init__(self):
        self.replies = queue.Queue()
        self.transcripts = queue.Queue()
        self.requests = []  # (path, body): a dict for chats, the form fields and file size for clips
        self.authorizations = []  # each request's Authorization header ('' when none)
        self.holds = []
        self.hung_up = threading.Event()
        double = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass  # quiet: the test reads `requests`

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                double.authorizations.append(self.headers.get("Authorization", ""))
                try:
                    if self.path == "/v1/chat/completions":
                        double._chat(self, json.loads(body))
                    elif self.path == "/v1/audio/transcriptions":
                        double._transcribe(self, body)
                    else:
                        self.send_error(404)
                except (BrokenPipeError, ConnectionResetError):
                    double.hung_up.set()  # the relay closed the connection before the answer ended

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc_info):
        for hold in self.holds:
            hold.set()
        self.server.shutdown()
        self.server.server_close()

    # -- What the test queues --------------------------------------------------------------------

    def reply(self, text="", *, tool_calls=(), hold_after=None):
        """Queue an answer: text, and tool calls as (name, arguments) pairs.

        With `hold_after`, a streamed answer stops after that many text deltas until the
        returned event is set.
        """
        held = threading.Event() if hold_after is not None else None
        if held is not None:
            self.holds.append(held)
        self.replies.put(Reply(text=text, tool_calls=list(tool_calls), hold_after=hold_after, mid=held))
        return held

    def fail(self, status, error):
        """Queue a refusal with this status and error message."""
        self.replies.put(Reply(status=status, error=error))

    def hold(self, text="late"):
        """Queue an answer that waits until the returned event is set (a slow model)."""
        held = threading.Event()
        self.holds.append(held)
        self.replies.put(Reply(text=text, held=held))
        return held

    def transcript(self, text):
        """Queue the text the next clip is heard as."""
        self.transcripts.put(text)

    def chats(self):
        """Return the chat request bodies, in order."""
        return [body for path, body in self.requests if path == "chat"]

    # -- Serving ---------------------------------------------------------------------------------

    def _next(self):
        try:
            return self.replies.get_nowait()
        except queue.Empty:
            return Reply(text="(double) no answer was queued")

    def _chat(self, handler, body):
        self.requests.append(("chat", body))
        reply = self._next()
        if reply.held is not None and self._hold(handler, reply.held):
            return
        if reply.status != 200:
            return _send_json(handler, reply.status, {"error": {"message": reply.error, "type": "double"}})
        calls = [
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for index, (name, args) in enumerate(reply.tool_calls)
        ]
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message = {"role": "assistant", "content": reply.text, **({"tool_calls": calls} if calls else {})}
            choice = {"index": 0, "message": message, "finish_reason": finish}
            return _send_json(handler, 200, {"id": "cmpl-1", "model": MODEL, "choices": [choice]})
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        deltas = [{"content": word} for word in re.findall(r"\s*\S+\s*", reply.text)]
        # Tool calls arrive as OpenAI streams them: the name first, the arguments in pieces.
        for index, call in enumerate(calls):
            arguments = call["function"]["arguments"]
            named = {"name": call["function"]["name"], "arguments": ""}
            deltas.append(
                {"tool_calls": [{"index": index, "id": call["id"], "type": "function", "function": named}]}
            )
            for start in range(0, len(arguments), 7):
                piece = {"arguments": arguments[start : start + 7]}
                deltas.append({"tool_calls": [{"index": index, "function": piece}]})
        for index, delta in enumerate(deltas):
            if index == reply.hold_after and self._hold(handler, reply.mid):
                return
            _event(
                handler, {"model": MODEL, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            )
        _event(handler, {"model": MODEL, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        usage = {"prompt_tokens": 12, "completion_tokens": len(deltas)}
        _event(handler, {"model": MODEL, "choices": [], "usage": usage})
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()

    def _hold(self, handler, released):
        """Wait until the test releases the answer; return True if the relay hung up first.

        A hang-up is seen as the end of the request socket's input (the relay closed its
        connection). Watching for it while holding, rather than for a write that fails later,
        tells the test whether the relay let go while the model was still writing: written
        bytes can sit in the socket buffers without an error.
        """
        connection = handler.connection
        for _ in range(int(HOLD_BOUND_SECONDS / 0.05)):
            if released.wait(0.05):
                return False
            readable, _, _ = select.select([connection], [], [], 0)
            if readable and connection.recv(1, socket.MSG_PEEK) == b"":
                self.hung_up.set()
                return True
        return False

    def _transcribe(self, handler, body):
        parsed = BytesParser(policy=HTTP).parsebytes(
            f"Content-Type: {handler.headers['Content-Type']}\r\n\r\n".encode() + body
        )
        fields = {}
        for part in parsed.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            fields[name] = len(payload) if part.get_filename() else payload.decode()
        self.requests.append(("transcribe", fields))
        try:
            text = self.transcripts.get_nowait()
        except queue.Empty:
            return _send_json(handler, 500, {"error": {"message": "no transcript was queued"}})
        _send_json(handler, 200, {"text": text})


def _send_json(handler, status, data):
    raw = json.dumps(data).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


def _event(handler, data):
    handler.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
    handler.wfile.flush()


# -- Fixtures (a plugin of the test tree: tests/conftest.py's pytest_plugins) ------------------


@pytest.fixture(scope="session")
def model_double():
    """The fake model server, for the whole session."""
    with ModelDouble() as double:
        yield double


@pytest.fixture
def model(model_double):
    """The fake model server with nothing queued and no requests recorded."""
    for pending in (model_double.replies, model_double.transcripts):
        while not pending.empty():
            pending.get_nowait()
    model_double.requests.clear()
    model_double.authorizations.clear()
    model_double.hung_up.clear()
    return model_double


@pytest.fixture(scope="session")
def model_server(model_double, tmp_path_factory):
    """The project under daphne with DEBUG on, its stand-ins answered by the fake model server.

    Logging is at DEBUG, so that a test can check that nothing of a conversation reaches the log.
    """
    server = DaphneServer(
        "sites.config.asgi:application",
        env={
            "DJANGO_DEBUG": "1",
            "DJANGO_LOG_LEVEL": "DEBUG",
            "TESTWALLET_MODEL_URL": model_double.url,
            "TESTWALLET_MODEL": MODEL,
            "TESTWALLET_MODEL_KEY": "sk-double-key",
            "TESTWALLET_TRANSCRIBE_URL": model_double.url,
            "TESTWALLET_TRANSCRIBE_MODEL": "double-whisper",
            "TESTWALLET_MODEL_TIMEOUT": "3",
        },
        setup_commands=SETUP,
        workdir=tmp_path_factory.mktemp("relay-daphne"),
    )
    with server:
        yield server


@pytest.fixture(scope="session")
def scripted_server(tmp_path_factory):
    """The project under daphne with DEBUG on and no model named: the scripted player answers."""
    server = DaphneServer(
        "sites.config.asgi:application",
        env={"DJANGO_DEBUG": "1", "TESTWALLET_MODEL_URL": "", "TESTWALLET_TRANSCRIBE_URL": ""},
        setup_commands=SETUP,
        workdir=tmp_path_factory.mktemp("scripted-daphne"),
    )
    with server:
        yield server
