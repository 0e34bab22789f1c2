"""``python -m testwallet.serve`` serves the project as ``daphne_server`` does, for other test runners;
a server that cannot start says why."""

import os
import queue
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from tests import loopback
from testwallet.server import DaphneServer, ServerFailedToStart

pytestmark = pytest.mark.live


def serve(*args):
    """Start ``python -m testwallet.serve`` with ``args``; return the process and a queue of its stdout lines."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "sites.config.settings"}
    process = subprocess.Popen(
        [sys.executable, "-m", "testwallet.serve", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    return process, lines


def test_it_prints_the_url_it_serves_and_stops_on_sigterm():
    process, lines = serve("--setup", "migrate --noinput", "sites.config.asgi:application")
    try:
        line = lines.get(timeout=60)
        assert line.startswith("Serving http://127.0.0.1:"), line
        url = line.split()[1]
        assert loopback.get(url + "/bookshop/", timeout=10).status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        with pytest.raises(httpx.ConnectError):
            loopback.get(url + "/", timeout=5)
    finally:
        process.kill()
        process.wait()


def test_a_setup_command_that_fails_says_which_and_exits_1():
    process, _lines = serve("--setup", "no_such_command", "sites.config.asgi:application")
    try:
        assert process.wait(timeout=60) == 1
        assert "'django-admin no_such_command' failed" in process.stderr.read()
    finally:
        process.kill()
        process.wait()


def test_a_server_whose_application_cannot_be_imported_fails_to_start_showing_why(tmp_path):
    server = DaphneServer(
        "no_such_module:application",
        settings_module="sites.config.settings",
        setup_commands=(),
        workdir=tmp_path,
    )
    with pytest.raises(ServerFailedToStart) as failed:
        server.start()
    assert "no_such_module:application did not answer" in str(failed.value)
    assert "No module named 'no_such_module'" in str(failed.value)
    assert server.process.poll() is not None
