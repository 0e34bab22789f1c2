"""
The Whisper models of the tests, each loaded once per session however many
test modules use it (``testwallet.direct.whisper.load_model`` is the slow part).
"""

import contextlib
import functools
import socket
import threading
import time

import pytest

#: One thread per model: the machine's cores are shared with the browser and the servers under test.
THREADS = 1


@functools.cache
def _loaded(name):
    from testwallet.direct.whisper import load_model

    return load_model(name, cpu_threads=THREADS)


def whisper_model(name):
    """Return the packaged model ``name`` (``base`` or ``tiny.en``), skipping when the whisper extra is missing."""
    pytest.importorskip(
        "faster_whisper", reason="the whisper extra is not installed: pip install 'visitor-ai[whisper]'"
    )
    return _loaded(name)


@contextlib.contextmanager
def transcription_server(backend):
    """Serve ``testwallet.transcribe``'s application for ``backend`` on a free loopback port; yield its /v1 URL."""
    import uvicorn

    from testwallet.transcribe import application

    # Bound first and handed to the server, as testwallet.server does: no port race.
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application(backend), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:  # uvicorn's own flag; its start-up is not an event we can await
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the transcription server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(10)
        listening.close()
