"""
Run the project under a real daphne process on a free loopback port.

The process gets its own file-backed SQLite database (migrated, then prepared
by any management commands the caller names) so that tests in the pytest
process and the server see the same data. Its output goes to a file that
``output()`` returns, for printing when a test fails.
"""

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

from byoa.wire.protocol import MAX_FRAME_BYTES
from testwallet import setup_cache

__all__ = ["DaphneServer", "HypercornServer", "ServerFailedToStart", "UvicornServer"]

# A bound, not a wait: the first request returns as soon as the server answers. Generous, since
# under `make test` every pytest worker starts its servers at once, and a loaded CI machine is slow.
STARTUP_TIMEOUT = 60.0


class ServerFailedToStart(RuntimeError):
    """Raised when the server exits or does not answer within the start-up bound."""


def _first_answer(port: int) -> None:
    """Ask the server on `port` for its home page and read the answer, within STARTUP_TIMEOUT."""
    # The standard library's client rather than httpx: an httpx client loads the CA bundle each
    # time one is made, for TLS this plain request on loopback never uses, at every server start.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=STARTUP_TIMEOUT)
    try:
        connection.request("GET", "/")
        connection.getresponse().read()
    finally:
        connection.close()


class DaphneServer:
    """A daphne process serving ``application`` (a dotted ASGI path)."""

    def __init__(
        self,
        application: str,
        *,
        settings_module: str | None = None,
        setup_commands: Iterable[Sequence[str]] = (("migrate", "--noinput"),),
        env: Mapping[str, str] | None = None,
        workdir: str | os.PathLike[str] | None = None,
        websocket_max_bytes: int = MAX_FRAME_BYTES,
        shared_sockets: Iterable[socket.socket] = (),
        port: int = 0,
    ) -> None:
        self.application = application
        self.settings_module = settings_module or os.environ.get("DJANGO_SETTINGS_MODULE")
        self.setup_commands = [tuple(command) for command in setup_commands]
        self.extra_env = dict(env or {})
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="daphne-server-"))
        self.websocket_max_bytes = websocket_max_bytes
        # Listening sockets this server accepts on besides its own: several
        # processes behind one address, the kernel handing each connection to one.
        self.shared_sockets = tuple(shared_sockets)
        # 0: a free port. A given one: a process restarted where the proxy expects it (deploy.cluster).
        self.requested_port = port
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.database = self.workdir / "db.sqlite3"
        self._log_path = self.workdir / "daphne.log"
        self._socket: socket.socket | None = None
        self._copier: threading.Thread | None = None
        self._printed = threading.Condition()  # notified by the copying thread after each line

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        """Return the environment of the server and of its set-up commands."""
        env = dict(os.environ)
        if self.settings_module:  # else it is not in os.environ either: the server has none, as here
            env["DJANGO_SETTINGS_MODULE"] = self.settings_module
        env.update(
            {
                "DATABASE_URL": f"sqlite:///{self.database}",
                "VISITOR_AI_VAR_DIR": str(self.workdir),
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    def command(self, fd: int) -> list[str]:
        """Return the argv that serves the application on the listening socket `fd`."""
        return [
            sys.executable,
            "-m",
            "daphne",
            "--fd",
            str(fd),
            "--websocket-max-message-size",
            str(self.websocket_max_bytes),
            "--websocket-max-frame-size",
            str(self.websocket_max_bytes),
            *[f"--endpoint=fd:fileno={shared.fileno()}" for shared in self.shared_sockets],
            self.application,
        ]

    def start(self) -> Self:
        """Prepare the database, start the server and wait until it answers."""
        env = self.environment()
        self._set_up(env)
        # We bind the socket and hand it to the server: it is listening before the
        # server has even started, so there is no port race and no polling: the
        # first request simply waits in the backlog until the server accepts it.
        self._socket = socket.create_server(("127.0.0.1", self.requested_port))
        # Accepted connections inherit this on Linux; a server that takes the fd
        # for a Unix socket (uvicorn --fd) would otherwise leave Nagle on.
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.port = self._socket.getsockname()[1]
        fd = self._socket.fileno()
        self.process = subprocess.Popen(
            self.command(fd),
            env=env,
            pass_fds=(fd, *[shared.fileno() for shared in self.shared_sockets]),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self._copier = threading.Thread(target=self._copy_output, daemon=True)
        self._copier.start()
        try:
            _first_answer(self.port)
        except (OSError, http.client.HTTPException) as error:
            self.stop()
            raise ServerFailedToStart(
                f"{self.application} did not answer ({error!r}):\n{self.output()}"
            ) from None
        finally:
            self._socket.close()
        return self

    def _set_up(self, env: dict[str, str]) -> None:
        """Run the set-up commands, or copy their outcome from the session's cache (setup_cache)."""
        cache = setup_cache.from_environment()
        own_places = {"DATABASE_URL", "VISITOR_AI_VAR_DIR"} & self.extra_env.keys()
        if not self.setup_commands or cache is None or own_places:
            self._run_setup_commands(env)
            return

        def run_in(directory: Path) -> None:
            self._run_setup_commands(
                {
                    **env,
                    "DATABASE_URL": f"sqlite:///{directory / self.database.name}",
                    "VISITOR_AI_VAR_DIR": str(directory),
                }
            )

        key = cache.key(self.settings_module, self.setup_commands, self.extra_env)
        cache.prepare(key, self.workdir, run_in)

    def _run_setup_commands(self, env: Mapping[str, str]) -> None:
        # In one process, without the system checks (testwallet.setup_commands says why).
        if not self.setup_commands:
            return
        commands = json.dumps([list(command) for command in self.setup_commands])
        done = subprocess.run(
            [sys.executable, "-m", "testwallet.setup_commands", commands],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise ServerFailedToStart(f"{done.stderr}{done.stdout}")

    def _copy_output(self) -> None:
        assert self.process is not None and self.process.stdout is not None  # started with a pipe
        assert self._socket is not None
        with open(self._log_path, "wb") as log:
            for line in self.process.stdout:
                log.write(line)
                log.flush()
                with self._printed:
                    self._printed.notify_all()
        # The server exited. If it never started, our copy of the socket is all
        # that keeps the start-up request waiting: shutting it down ends that now.
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)

    def output(self) -> str:
        """Return what the server has printed so far."""
        try:
            return self._log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def wait_for_output(self, text: str, *, count: int = 1, timeout: float = 10.0) -> bool:
        """Wait until ``text`` has been printed ``count`` times in all; return False after ``timeout`` seconds.

        A server logs after it has answered: a test that checks a log line right after the
        response must wait for it, with a bound.
        """
        with self._printed:
            return self._printed.wait_for(lambda: self.output().count(text) >= count, timeout)

    def stop(self, timeout: float = 10.0) -> int | None:
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

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


class UvicornServer(DaphneServer):
    """The same process management, serving with uvicorn and one of its WebSocket implementations."""

    def __init__(
        self,
        application: str,
        *,
        ws: Literal["websockets", "websockets-sansio", "wsproto"] = "websockets",
        **options: Any,
    ) -> None:
        super().__init__(application, **options)
        self.ws = ws

    def command(self, fd: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "--fd",
            str(fd),
            "--ws",
            self.ws,
            "--ws-max-size",
            str(self.websocket_max_bytes),
            "--lifespan",
            "on",
            "--no-access-log",
            *(["--loop", "uvloop", "--http", "httptools"] if _installed("uvloop", "httptools") else []),
            self.application,
        ]


class HypercornServer(DaphneServer):
    """The same process management, serving with hypercorn."""

    def command(self, fd: int) -> list[str]:
        config = self.workdir / "hypercorn.toml"
        config.write_text(f"websocket_max_message_size = {self.websocket_max_bytes}\n")
        return [
            sys.executable,
            "-m",
            "hypercorn",
            "--bind",
            f"fd://{fd}",
            "--config",
            str(config),
            *(["--worker-class", "uvloop"] if _installed("uvloop") else []),
            self.application,
        ]


def _installed(*modules: str) -> bool:
    from importlib.util import find_spec

    return all(find_spec(module) is not None for module in modules)
