"""
Run the project under a real daphne process on a free loopback port.

The process gets its own file-backed SQLite database (migrated, then prepared
by any management commands the caller names) so that tests in the pytest
process and the server see the same data. Its output goes to a file that
``output()`` returns, for printing when a test fails.
"""

import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

STARTUP_TIMEOUT = 30.0


class ServerFailedToStart(RuntimeError):
    """Raised when daphne exits or does not answer within the start-up bound."""


def free_port():
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DaphneServer:
    """A daphne process serving ``application`` (a dotted ASGI path)."""

    def __init__(
        self,
        application,
        *,
        settings_module=None,
        setup_commands=(("migrate", "--noinput"),),
        env=None,
        workdir=None,
        websocket_max_bytes=4 * 1024 * 1024,
    ):
        self.application = application
        self.settings_module = settings_module or os.environ.get("DJANGO_SETTINGS_MODULE")
        self.setup_commands = [tuple(command) for command in setup_commands]
        self.extra_env = dict(env or {})
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="daphne-server-"))
        self.websocket_max_bytes = websocket_max_bytes
        self.port = None
        self.process = None
        self.database = self.workdir / "db.sqlite3"
        self._log_path = self.workdir / "daphne.log"
        self._listening = threading.Event()
        self._copier = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.port}"

    def environment(self):
        """Return the environment of the server and of its set-up commands."""
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": self.settings_module,
                "DATABASE_URL": f"sqlite:///{self.database}",
                "VISITOR_AI_VAR_DIR": str(self.workdir),
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    def start(self):
        """Prepare the database, start daphne and wait until it answers."""
        env = self.environment()
        for command in self.setup_commands:
            subprocess.run(
                [sys.executable, "-m", "django", *command], env=env, check=True, capture_output=True
            )
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "daphne",
                "--bind", "127.0.0.1", "--port", str(self.port),
                "--websocket-max-message-size", str(self.websocket_max_bytes),
                "--websocket-max-frame-size", str(self.websocket_max_bytes),
                self.application,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self._copier = threading.Thread(target=self._copy_output, daemon=True)
        self._copier.start()
        # Daphne prints "Listening on TCP address" once its socket is bound; the
        # copier thread sets the event then (or when daphne exits first).
        if not self._listening.wait(STARTUP_TIMEOUT):
            self.stop()
            raise ServerFailedToStart(f"daphne did not listen within {STARTUP_TIMEOUT}s:\n{self.output()}")
        if self.process.poll() is not None:
            raise ServerFailedToStart(f"daphne exited with {self.process.returncode}:\n{self.output()}")
        return self

    def _copy_output(self):
        with open(self._log_path, "wb") as log:
            for line in self.process.stdout:
                log.write(line)
                log.flush()
                if b"Listening on TCP address" in line:
                    self._listening.set()
        self._listening.set()  # it exited: stop waiting

    def output(self):
        """Return what the server has printed so far."""
        try:
            return self._log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self, timeout=10.0):
        """Stop daphne with SIGTERM (SIGKILL after `timeout`) and return its exit code."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self._copier is not None:
            self._copier.join(timeout)
        return self.process.returncode

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()
