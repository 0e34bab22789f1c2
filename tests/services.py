"""
Run private PostgreSQL and Redis servers from Debian's packages, for this repository's tests,
benchmarks and ``make cluster`` (deploy/cluster.py); the ``postgres_server`` and
``redis_server`` fixtures (tests/service_fixtures.py) give a test one for the session.

Each server gets a temporary directory and a free loopback port. ``stop()``
and ``start()`` keep both, so a test can restart a server under a running
site (``restart()``) and the site finds it where it was, with its data.
Start-up waits for the server's own "ready" line with a bound (no polling);
``output()`` returns what the server printed, for the report of a failure.

    with PostgresServer() as postgres, RedisServer() as redis:
        env = {"DATABASE_URL": postgres.url, "REDIS_URL": redis.url}

PostgreSQL refuses to run as root: as root, its processes run as the
``postgres`` user (created by Debian's package) or else ``nobody``.
"""

import glob
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Self

__all__ = ["PostgresServer", "RedisServer", "ServiceFailedToStart", "ServiceMissing", "postgres_bindir"]

STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0
# Another process may take the free port we picked before the server binds it.
PORT_ATTEMPTS = 3


class ServiceMissing(RuntimeError):
    """Raised when the server's Debian package is not installed."""


class ServiceFailedToStart(RuntimeError):
    """Raised when the server exits or does not say it is ready within the start-up bound."""


def postgres_bindir() -> Path:
    """Return the directory of the newest installed PostgreSQL's programs (``$PG_BINDIR`` first)."""
    configured = os.environ.get("PG_BINDIR")
    if configured:
        return Path(configured)
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found:
        raise ServiceMissing("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    newest = max(found, key=lambda path: [int(part) for part in re.findall(r"\d+", Path(path).parts[-3])])
    return Path(newest).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class _Service:
    """One server process: its directory, port, output and lifecycle."""

    name: ClassVar[str] = "service"
    ready_line: ClassVar[bytes] = b""
    # Messages that mean the port was taken between our probe and the server's bind.
    port_taken: ClassVar[tuple[str, ...]] = ()
    stop_signal: ClassVar[signal.Signals] = signal.SIGTERM

    def __init__(self) -> None:
        self.workdir = Path(tempfile.mkdtemp(prefix=f"{self.name}-"))
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._output = bytearray()
        self._lock = threading.Lock()
        self._grew = threading.Condition(self._lock)
        self._copier: threading.Thread | None = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def command(self) -> list[str]:
        """Return the argv of the server in the foreground."""
        raise NotImplementedError

    def prepare(self) -> None:
        """Create the server's data on first start."""

    def after_start(self) -> None:
        """Finish setting up once the server accepts connections."""

    def popen_options(self) -> dict[str, Any]:
        """Return extra keyword arguments for subprocess.Popen."""
        return {}

    def start(self) -> Self:
        """Start the server (on its old port and data after a stop) and wait until it is ready."""
        if self.running:
            return self
        if self.port is None:
            self.prepare()
            for attempt in range(PORT_ATTEMPTS):
                self.port = _free_port()
                try:
                    self._launch()
                    break
                except ServiceFailedToStart as error:
                    taken = any(text in str(error) for text in self.port_taken)
                    if attempt == PORT_ATTEMPTS - 1 or not taken:
                        self.port = None
                        raise
            self.after_start()
        else:
            self._launch()
        return self

    def _launch(self) -> None:
        settled, ready = threading.Event(), threading.Event()
        self._log(f"--- starting {self.name} on port {self.port}\n".encode())
        self.process = subprocess.Popen(
            self.command(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            **self.popen_options(),
        )
        self._copier = threading.Thread(
            target=self._copy_output, args=(self.process, settled, ready), daemon=True
        )
        self._copier.start()
        # The server's own "ready" line ends the wait; so does its exit (the copier settles at EOF).
        # Its output ending without that line is a failure: the process may not be reaped yet when
        # its output ends, so poll() alone would let a server that exited at once pass as started.
        if not settled.wait(STARTUP_TIMEOUT) or not ready.is_set() or self.process.poll() is not None:
            self.stop()
            raise ServiceFailedToStart(
                f"{self.name} did not start on port {self.port}:\n{self.output()[-5000:]}"
            )

    def _copy_output(
        self, process: subprocess.Popen[bytes], settled: threading.Event, ready: threading.Event
    ) -> None:
        assert process.stdout is not None  # started with a pipe
        for line in process.stdout:
            self._log(line)
            if self.ready_line in line:
                ready.set()
                settled.set()
        settled.set()

    def _log(self, data: bytes) -> None:
        with self._grew:
            self._output += data
            self._grew.notify_all()

    def output_length(self) -> int:
        """Return how many bytes of output there are so far (a mark for ``wait_for_output``)."""
        with self._lock:
            return len(self._output)

    def wait_for_output(self, *texts: str, since: int = 0, timeout: float = STARTUP_TIMEOUT) -> str | None:
        """Wait until one of ``texts`` is printed after mark ``since``; return it (None after ``timeout``)."""
        wanted = [text.encode() for text in texts]

        def found() -> bytes | None:
            return next((text for text in wanted if text in self._output[since:]), None)

        with self._grew:
            seen = self._grew.wait_for(found, timeout)
        return seen.decode() if seen else None

    def output(self) -> str:
        """Return what the server has printed so far, over all its starts."""
        with self._lock:
            return self._output.decode(errors="replace")

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """Stop the server cleanly (SIGKILL after ``timeout``), keeping port and data; return its code."""
        return self._end(self.stop_signal, timeout)

    def kill(self) -> int | None:
        """Kill the server with SIGKILL, as a crash would; return its exit code."""
        return self._end(signal.SIGKILL, STOP_TIMEOUT)

    def _end(self, signum: int, timeout: float) -> int | None:
        if self.process is None or not self.running:
            return self.process.returncode if self.process else None
        self.process.send_signal(signum)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self._copier is not None:
            self._copier.join(timeout)
        return self.process.returncode

    def restart(self) -> Self:
        """Stop and start again on the same port with the same data."""
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


class RedisServer(_Service):
    """A private ``redis-server`` on loopback; ``url`` is ``redis://127.0.0.1:<port>/0``.

    With ``persistent`` (the default, as Debian's redis.conf), a clean stop
    saves the data and a start loads it again; ``kill()`` loses what was not saved.
    """

    name = "redis"
    ready_line = b"Ready to accept connections"
    port_taken = ("Address already in use",)

    def __init__(self, *, persistent: bool = True, executable: str | None = None) -> None:
        found = executable or shutil.which("redis-server")
        if found is None:
            raise ServiceMissing("redis-server is not installed (Debian: apt-get install redis-server)")
        self.executable = found
        self.persistent = persistent
        super().__init__()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        return [
            self.executable,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.workdir),
            "--save",
            "3600 1" if self.persistent else "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--logfile",
            "",
        ]


class PostgresServer(_Service):
    """A private PostgreSQL cluster on loopback with one database; ``url`` is its ``postgres://`` URL.

    The cluster is made by ``initdb`` on first start, with password
    authentication for the ``user`` and a random password. fsync is off:
    the data live as long as the test; a killed server keeps its commits.
    """

    name = "postgres"
    ready_line = b"database system is ready to accept connections"
    port_taken = ("could not bind", "Address already in use")
    # PostgreSQL's "fast" shutdown: SIGTERM ("smart") would wait for every client to leave.
    stop_signal = signal.SIGINT

    def __init__(
        self,
        *,
        database: str = "visitor_ai",
        user: str = "visitor_ai",
        bindir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.bindir = Path(bindir) if bindir else postgres_bindir()
        self.database = database
        self.user = user
        self.password = secrets.token_urlsafe(16)
        super().__init__()
        self.data = self.workdir / "data"
        self._account = self._unprivileged_account()
        if self._account is not None:
            os.chown(self.workdir, self._account.pw_uid, self._account.pw_gid)

    @property
    def url(self) -> str:
        return f"postgres://{self.user}:{self.password}@127.0.0.1:{self.port}/{self.database}"

    @staticmethod
    def _unprivileged_account() -> pwd.struct_passwd | None:
        """Return the account to run as when we are root (PostgreSQL refuses root), else None."""
        if os.geteuid() != 0:
            return None
        for name in ("postgres", "nobody"):
            try:
                return pwd.getpwnam(name)
            except KeyError:
                continue
        raise ServiceFailedToStart("running as root, and neither a 'postgres' nor a 'nobody' account exists")

    def popen_options(self) -> dict[str, Any]:
        if self._account is None:
            return {}
        # The account's own environment: root's HOME would be unreadable to it.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.workdir), "LC_ALL": "C"}
        return {"user": self._account.pw_uid, "group": self._account.pw_gid, "extra_groups": [], "env": env}

    def _run(self, *argv: str | os.PathLike[str], env: dict[str, str] | None = None) -> None:
        options = self.popen_options()
        if env:
            options["env"] = {**options.get("env", os.environ), **env}
        done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, **options)
        self._log(f"--- {' '.join(map(str, argv))}\n{done.stdout}{done.stderr}".encode())
        if done.returncode != 0:
            raise ServiceFailedToStart(f"{argv[0]} failed:\n{done.stdout}{done.stderr}")

    def prepare(self) -> None:
        password_file = self.workdir / "password"
        password_file.write_text(self.password + "\n")
        if self._account is not None:
            os.chown(password_file, self._account.pw_uid, self._account.pw_gid)
        try:
            self._run(
                self.bindir / "initdb",
                "--pgdata",
                str(self.data),
                "--username",
                self.user,
                "--pwfile",
                str(password_file),
                "--auth",
                "scram-sha-256",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync",
                "--no-instructions",
            )
        finally:
            password_file.unlink()

    def command(self) -> list[str]:
        return [
            str(self.bindir / "postgres"),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={self.workdir}",
            # fsync off only spares the disk: a killed server (not a crashed machine)
            # still finds every commit in the WAL the kernel holds.
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
            "-c",
            "logging_collector=off",
        ]

    def after_start(self) -> None:
        self._run(
            self.bindir / "createdb",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--username",
            self.user,
            self.database,
            env={"PGPASSWORD": self.password},
        )
