"""
The project as a deployment runs it, on one machine: PostgreSQL and Redis
(``tests.services``, this repository's own), N uvicorn processes (``make run``'s server) on one
database and one channel layer, and nginx in front of them on one address
(``deploy/nginx.conf.template``), serving ``collectstatic``'s files itself.

    with Cluster(processes=3) as cluster:
        cluster.url            # nginx: what a visitor reaches
        cluster.servers[1].url # one process, addressed directly

From the checkout (docs/howto/deploy.md), until Ctrl-C or ``down``::

    python -m deploy.cluster up [--processes N] [--port 8080]
    python -m deploy.cluster down

The tests under tests/deploy/ run their own. This lives beside its template
in the checkout, not in the wheel: it runs this project's settings.
"""

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import global_settings

# _Service: the process handling every server of tests.services shares (start, ready line, output).
from tests.services import PostgresServer, RedisServer, ServiceFailedToStart, ServiceMissing, _Service
from testwallet.server import ServerFailedToStart, UvicornServer

__all__ = ["Cluster", "NginxLimits", "NginxProxy", "PRODUCTION_LIMITS", "PasswordRedis"]

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
PID_FILE = Path(__file__).resolve().parent.parent / "var" / "cluster.pid"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


#: glibc's allocator, for each process: a fixed threshold for mmap (128 KiB, its default start) turns
#: off its dynamic one, which after the first 4 MiB WebSocket frame was freed put later ones on the
#: heap, where the process kept them after a flood of such frames (benchmarks/ws_flood.py, issue 40).
#: Other C libraries ignore it.
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": "131072"}


@dataclass(frozen=True)
class NginxLimits:
    """The per-address limits the template's placeholders take (docs/howto/deploy.md)."""

    wallet_sockets: int  # WebSockets open at once on /byoa/ws
    code_rate: str  # nginx's rate on POST /byoa/code, e.g. "30r/m"
    code_burst: int  # requests over that rate let through at once before 429
    mcp_rate: str  # the same for /api/mcp
    mcp_burst: int
    connections: int = 100  # requests and WebSockets open at once, on every path
    post_rate: str = "2r/s"  # every POST (each may create a session)
    post_burst: int = 40
    admin_login_rate: str = "6r/m"  # POST /admin/login/: a password guess each
    admin_login_burst: int = 5
    worker_connections: int = 16384  # per nginx worker, every address together
    # Wallet sockets opened on /byoa/ws: a wallet comes back 1, 2, 5 and 10 s after a drop, then
    # every 30 s (the spec), while a flooder closed for an oversized frame reopens at once, and each
    # socket costs the process the frames it has to read before the close.
    wallet_open_rate: str = "60r/m"
    wallet_open_burst: int = 10

    def placeholders(self) -> dict[str, str]:
        """Return the template's placeholders and their values."""
        return {
            "@WALLET_SOCKETS@": str(self.wallet_sockets),
            "@CODE_RATE@": self.code_rate,
            "@CODE_BURST@": str(self.code_burst),
            "@MCP_RATE@": self.mcp_rate,
            "@MCP_BURST@": str(self.mcp_burst),
            "@CONNECTIONS@": str(self.connections),
            "@POST_RATE@": self.post_rate,
            "@POST_BURST@": str(self.post_burst),
            "@ADMIN_LOGIN_RATE@": self.admin_login_rate,
            "@ADMIN_LOGIN_BURST@": str(self.admin_login_burst),
            "@WORKER_CONNECTIONS@": str(self.worker_connections),
            "@WALLET_OPEN_RATE@": self.wallet_open_rate,
            "@WALLET_OPEN_BURST@": str(self.wallet_open_burst),
            # A proxied connection holds two descriptors; the rest is room for logs and files.
            "@WORKER_FILES@": str(2 * self.worker_connections + 1024),
        }


#: A visitor has one or two wallets (and a wallet coming back may briefly hold two
#: sockets), a few visitors may share an address; a page asks for a code per click, and
#: its assistant makes a few MCP calls per answer. byoa's own code limits stay the exact
#: quota (BYOA["CODES_PER_ADDRESS"]); these are the brake in front of every process.
PRODUCTION_LIMITS = NginxLimits(
    wallet_sockets=8, code_rate="30r/m", code_burst=20, mcp_rate="10r/s", mcp_burst=40
)


class NginxProxy(_Service):
    """nginx from Debian's package, in the foreground, proxying to ``upstreams`` (``host:port``)."""

    name = "nginx"
    ready_line = b"start worker process"
    port_taken = ("Address already in use",)
    stop_signal = signal.SIGQUIT  # nginx's graceful shutdown (SIGTERM is its fast one)

    def __init__(
        self,
        upstreams,
        static_root,
        *,
        port=None,
        executable=None,
        template=TEMPLATE,
        limits: NginxLimits = PRODUCTION_LIMITS,
        max_body: int = global_settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    ):
        self.executable = (
            executable
            or shutil.which("nginx")
            or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        )
        if self.executable is None:
            raise ServiceMissing("nginx is not installed (Debian: apt-get install nginx)")
        super().__init__()
        self.upstreams = list(upstreams)
        self.static_root = Path(static_root)
        self.template = Path(template)
        self.requested_port = port
        self.limits = limits
        self.max_body = max_body  # bytes: the processes' own limit (visitor_ai.limits.BodyLimit)
        # As root, nginx's workers run as nobody: they write their temporary files here.
        self.workdir.chmod(0o755)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def prepare(self):
        for name in TEMP_PATHS:
            (self.workdir / name).mkdir(exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(self.workdir / name, "nobody")

    def start(self):
        if self.port is None and self.requested_port:
            self.prepare()
            self.port = self.requested_port
            self._launch()
            return self
        return super().start()

    def config(self):
        """Return the configuration file, written from the template for the current port."""
        # max_fails=0: nginx never marks a process failed for everyone. With its default (1), one
        # request that met an error (a client's body cut off, say) took a process out for the
        # fail_timeout, and two such requests every process: 502 for every visitor. A process that
        # is gone refuses its connection at once, and nginx passes the request on (proxy_next_upstream).
        servers = "\n".join(f"        server {upstream} max_fails=0;" for upstream in self.upstreams)
        text = (
            self.template.read_text()
            .replace("@RUN@", str(self.workdir))
            .replace("@SERVERS@", servers)
            .replace("@LISTEN@", f"127.0.0.1:{self.port}")
            .replace("@STATIC@", str(self.static_root))
            .replace("@MAX_BODY@", str(self.max_body))
        )
        for placeholder, value in self.limits.placeholders().items():
            text = text.replace(placeholder, value)
        path = self.workdir / "nginx.conf"
        path.write_text(text)
        return path

    def command(self):
        return [self.executable, "-p", str(self.workdir), "-e", "stderr", "-c", str(self.config())]

    def reload(self, upstreams):
        """Proxy to ``upstreams`` from now on: rewrite the configuration, reload, wait for the new workers."""
        self.upstreams = list(upstreams)
        self.config()
        mark = self.output_length()
        self.process.send_signal(signal.SIGHUP)
        # nginx keeps its old configuration when the new one is wrong, and says so with [emerg].
        if self.wait_for_output("start worker process", "[emerg]", since=mark) != "start worker process":
            raise ServiceFailedToStart(f"nginx did not reload:\n{self.output()[-3000:]}")


class PasswordRedis(RedisServer):
    """``redis-server`` that answers only clients with its password, which ``url`` carries (``REDIS_URL``).

    The password is random per start and sits in a configuration file only its
    owner reads, not on the command line, where any local user's ``ps`` sees it.
    """

    def __init__(self, **options):
        super().__init__(**options)
        self.password = secrets.token_urlsafe(32)

    @property
    def url(self):
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    def command(self):
        conf = self.workdir / "redis.conf"
        conf.touch(mode=0o600)
        conf.write_text(f"requirepass {self.password}\n")
        executable, *options = super().command()
        return [executable, str(conf), *options]  # redis-server takes its file first, options after


class Cluster:
    """PostgreSQL, Redis (with a password), ``processes`` uvicorn processes of the project, and nginx in front.

    nginx applies ``limits`` to each client address (the production ones unless given). With
    ``redis_servers`` above 1, the channel layer shards its channels over that many Redis servers
    (``REDIS_URL``, comma-separated); ``redis`` is the first of ``redises``.
    """

    def __init__(
        self,
        processes=2,
        *,
        settings_module="sites.config.settings",
        setup_commands=(("migrate", "--noinput"), ("load_catalog",)),
        env=None,
        port=None,
        application="sites.config.asgi:application",
        limits: NginxLimits = PRODUCTION_LIMITS,
        redis_servers=1,
    ):
        self.count = processes
        self.redis_count = redis_servers
        self.settings_module = settings_module
        self.setup_commands = [tuple(command) for command in setup_commands]
        self.workdir = Path(tempfile.mkdtemp(prefix="cluster-"))
        self.workdir.chmod(0o755)  # nginx's workers read static/ in it
        self.static_root = self.workdir / "static"
        self.extra_env = dict(env or {})
        self.port = port
        self.application = application
        self.limits = limits
        self.postgres = None
        self.redises = []
        self.servers = []
        self.nginx = None

    @property
    def url(self):
        return self.nginx.url

    @property
    def redis(self):
        """The first Redis server (the only one, unless ``redis_servers`` asked for more)."""
        return self.redises[0] if self.redises else None

    def environment(self):
        """Return what every process of the cluster shares: the database, the layer, the key, the files."""
        return {
            "DJANGO_SETTINGS_MODULE": self.settings_module,
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": ",".join(redis.url for redis in self.redises),
            # One key for every process: a session or CSRF cookie signed by one is valid on all.
            "DJANGO_SECRET_KEY": self._secret_key,
            "VISITOR_AI_VAR_DIR": str(self.workdir),
            "DJANGO_SERVE_STATIC": "0",
            **MALLOC_ENV,
            **self.extra_env,
        }

    def start(self):
        """Start everything, the database prepared once; stop what started if a part fails."""
        self._secret_key = secrets.token_urlsafe(50)
        try:
            self.postgres = PostgresServer().start()
            for _ in range(self.redis_count):
                self.redises.append(PasswordRedis().start())
            self._run("collectstatic", "--noinput")
            for index in range(self.count):
                self.servers.append(self._server(index).start())
            self.nginx = NginxProxy(
                [f"127.0.0.1:{server.port}" for server in self.servers],
                self.static_root,
                port=self.port,
                limits=self.limits,
            ).start()
        except BaseException:
            self.stop()
            raise
        return self

    def restart_server(self, index, *, same_port=True):
        """Stop one process and start a new one in its place; return the new one.

        On the same port, as a deployment's service manager restarts a process:
        nginx's configuration, and so its hash ring (sticky routing), stay as they
        were, and nginx needs no reload (a reload would end every wallet socket
        after its worker_shutdown_timeout). ``same_port=False`` takes a new port
        and reloads nginx with it.
        """
        port = self.stop_server(index)
        return self.start_server(index, port=port if same_port else 0)

    def stop_server(self, index):
        """Stop one process (nginx passes its requests to the next one on the ring); return its port."""
        server = self.servers[index]
        server.stop()
        return server.port

    def start_server(self, index, *, port=0):
        """Start a new process in place of the stopped one at ``index``, on ``port`` (0: a new one)."""
        self.servers[index] = self._server(index, setup=False, port=port).start()
        upstreams = [f"127.0.0.1:{server.port}" for server in self.servers]
        if upstreams != self.nginx.upstreams:
            self.nginx.reload(upstreams)
        return self.servers[index]

    def _server(self, index, setup=True, port=0):
        workdir = Path(tempfile.mkdtemp(prefix=f"server-{index}-", dir=self.workdir))
        return UvicornServer(
            self.application,
            ws="websockets-sansio",
            settings_module=self.settings_module,
            setup_commands=self.setup_commands if index == 0 and setup else (),
            env=self.environment(),
            workdir=workdir,
            port=port,
        )

    def _run(self, *command):
        env = {**os.environ, **self.environment()}
        done = subprocess.run(
            [sys.executable, "-m", "django", *command], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise ServerFailedToStart(
                f"'django-admin {' '.join(command)}' failed:\n{done.stdout}{done.stderr}"
            )
        return done.stdout

    def manage(self, *command):
        """Run a management command against the cluster's database; return its output."""
        return self._run(*command)

    def output(self):
        """Return the output of every part, for the report of a failure."""
        parts = [("postgres", self.postgres), *((f"redis {i}", r) for i, r in enumerate(self.redises))]
        parts.append(("nginx", self.nginx))
        parts += [
            (f"server {index} (port {server.port})", server) for index, server in enumerate(self.servers)
        ]
        return "\n".join(f"===== {name}\n{part.output()[-8000:]}" for name, part in parts if part is not None)

    def stop(self):
        """Stop nginx, the processes, Redis and PostgreSQL, and remove their files."""
        if self.nginx is not None:
            self.nginx.close()
        for server in self.servers:
            server.stop()
        for service in (*self.redises, self.postgres):
            if service is not None:
                service.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()


def up(processes, port):
    """Run a cluster until SIGINT or SIGTERM."""
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    print(f"Starting PostgreSQL, Redis, {processes} uvicorn processes and nginx...", flush=True)
    # DEBUG off, as a deployment runs: DJANGO_DEBUG=1 turns it on (links to ws://127.0.0.1 then
    # work with a wallet's developer switch, as under `make run`).
    debug = os.environ.get("DJANGO_DEBUG", "0")
    with Cluster(processes=processes, port=port, env={"DJANGO_DEBUG": debug}) as cluster:
        PID_FILE.parent.mkdir(exist_ok=True)
        PID_FILE.write_text(str(os.getpid()))
        ports = ", ".join(str(server.port) for server in cluster.servers)
        print(
            f"Serving on {cluster.url}/ (processes on ports {ports});"
            " Ctrl-C or `python -m deploy.cluster down` stops it.",
            flush=True,
        )
        try:
            stop.wait()
        finally:
            PID_FILE.unlink(missing_ok=True)
    print("Stopped; its database and files are removed.")


def down():
    """Stop the cluster that ``up`` runs."""
    try:
        pid = int(PID_FILE.read_text())
    except (FileNotFoundError, ValueError):
        sys.exit("No cluster is running (var/cluster.pid is missing).")
    os.kill(pid, signal.SIGTERM)
    print(f"Asked the cluster (pid {pid}) to stop.")


def main(argv=None):
    """Parse the command line and run ``up`` or ``down``."""
    parser = argparse.ArgumentParser(
        prog="python -m deploy.cluster", description="Run the project as deployed, locally."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    start = commands.add_parser("up", help="start the cluster and serve until stopped")
    start.add_argument(
        "--processes",
        type=int,
        default=max(2, os.cpu_count() or 1),
        help="uvicorn processes (default: one per core, at least 2)",
    )
    start.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1 (default 8080)")
    commands.add_parser("down", help="stop the running cluster")
    args = parser.parse_args(argv)
    if args.command == "down":
        return down()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    return up(args.processes, args.port)


if __name__ == "__main__":
    main()
