"""visitor_ai.limits.BodyLimit: a request body past its limit is refused as it arrives, before any view runs."""

import asyncio
import socket
import threading
from pathlib import Path

import pytest

from visitor_ai.limits import BodyLimit

CHUNK = 64 * 1024


class Reader:
    """An ASGI application that reads the whole body, as Django's ASGIHandler does, then answers 200."""

    def __init__(self):
        self.read = 0
        self.disconnected = False
        self.answered = False

    async def __call__(self, scope, receive, send):
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return  # Django: RequestAborted, no view, no response
            self.read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        self.answered = True
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def http_scope(headers=()):
    return {"type": "http", "method": "POST", "path": "/x", "headers": list(headers)}


async def serve(application, scope, chunks):
    """Run one request; return (the messages sent, how many chunks the application took)."""
    sent, taken = [], 0

    async def receive():
        nonlocal taken
        if taken < chunks:
            taken += 1
            return {"type": "http.request", "body": b"x" * CHUNK, "more_body": taken < chunks}
        await asyncio.Event().wait()  # a client that sends nothing more

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(application(scope, receive, send), 5)
    return sent, taken


async def test_a_declared_length_over_the_limit_is_refused_with_413_unread():
    reader = Reader()
    sent, taken = await serve(
        BodyLimit(reader, max_bytes=CHUNK), http_scope([(b"content-length", b"1000000000")]), 10
    )
    assert sent[0]["status"] == 413 and taken == 0 and reader.read == 0


async def test_a_chunked_body_is_cut_off_where_it_passes_the_limit_and_answered_413():
    reader = Reader()
    sent, taken = await serve(BodyLimit(reader, max_bytes=4 * CHUNK), http_scope(), 1000)
    assert sent[0]["status"] == 413
    assert taken == 5  # the chunk that passed the limit is the last one read
    assert reader.read == 4 * CHUNK and reader.disconnected and not reader.answered


async def test_a_body_within_the_limit_reaches_the_application():
    reader = Reader()
    sent, _taken = await serve(BodyLimit(reader, max_bytes=4 * CHUNK), http_scope(), 4)
    assert sent[0]["status"] == 200 and reader.read == 4 * CHUNK


async def test_the_default_limit_is_djangos_data_upload_max_memory_size(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * CHUNK
    sent, _taken = await serve(BodyLimit(Reader()), http_scope(), 3)
    assert sent[0]["status"] == 413
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = None
    sent, _taken = await serve(BodyLimit(Reader()), http_scope(), 3)
    assert sent[0]["status"] == 200


async def test_websockets_and_the_lifespan_pass_through():
    seen = []

    async def application(scope, receive, send):
        seen.append(scope["type"])

    for kind in ("websocket", "lifespan"):
        await BodyLimit(application, max_bytes=0)({"type": kind}, None, None)
    assert seen == ["websocket", "lifespan"]


# The project's application on a real uvicorn: what reaches the temporary directory.


@pytest.fixture(scope="module")
def uvicorn_server(tmp_path_factory):
    from testwallet.server import UvicornServer

    temp = tmp_path_factory.mktemp("server-tmp")
    server = UvicornServer(
        "sites.config.asgi:application",
        ws="websockets-sansio",
        settings_module="tests.byoa.server_settings",
        workdir=tmp_path_factory.mktemp("uvicorn-limits"),
        env={"TMPDIR": str(temp)},
    )
    with server:
        yield server, temp


def directory_bytes(path):
    return sum(entry.stat().st_size for entry in Path(path).rglob("*") if entry.is_file())


@pytest.mark.live
def test_a_large_chunked_post_is_refused_before_it_reaches_the_disk(uvicorn_server):
    server, temp = uvicorn_server
    host, port = server.url.removeprefix("http://").split(":")
    peak, stop = [0], threading.Event()

    def watch():
        while not stop.wait(0.01):
            peak[0] = max(peak[0], directory_bytes(temp))

    watcher = threading.Thread(target=watch)
    watcher.start()
    sent = 0
    try:
        with socket.create_connection((host, int(port)), timeout=10) as client:
            client.sendall(
                f"POST /geography/clip/ HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: audio/wav\r\n"
                "Transfer-Encoding: chunked\r\n\r\n".encode()
            )
            chunk = b"%x\r\n" % CHUNK + b"x" * CHUNK + b"\r\n"
            try:
                while sent < 256 * 1024 * 1024:  # 256 MiB, unless the server refuses first
                    client.sendall(chunk)
                    sent += CHUNK
            except OSError:  # the server answered and closed: nothing more is read
                pass
            answer = client.recv(65536)
    finally:
        stop.set()
        watcher.join()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 64 * 1024 * 1024, f"{sent} bytes were taken before the refusal"
    assert peak[0] < 1024 * 1024, f"{peak[0]} bytes reached the temporary directory"


async def test_an_application_that_answers_after_the_cut_off_is_not_heard_the_413_is():
    async def answers_anyway(scope, receive, send):
        while (await receive())["type"] != "http.disconnect":
            pass
        await send({"type": "http.response.start", "status": 400, "headers": []})
        await send({"type": "http.response.body", "body": b"bad form"})

    sent, _taken = await serve(BodyLimit(answers_anyway, max_bytes=CHUNK), http_scope(), 10)
    assert [message.get("status") for message in sent] == [413, None]
