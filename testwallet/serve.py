"""
Serve the project as the ``daphne_server`` fixture does, for a browser suite in another test runner
(Playwright Test's ``webServer``, a shell script)::

    python -m testwallet.serve --setup "migrate --noinput" --setup load_catalog mysite.asgi:application

The server gets its own SQLite database and a free loopback port (``DaphneServer`` binds it first, so
there is no port to choose and no race); once it answers, this prints ``Serving <url>`` for the
runner to read, and serves until SIGTERM or SIGINT.
"""

import argparse
import signal
import sys
import tempfile
from collections.abc import Sequence
from types import FrameType

from testwallet.server import DaphneServer, ServerFailedToStart

__all__ = ["main"]

#: Stops the server: what a test runner sends when its suite is done, and Ctrl-C.
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until told to stop; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m testwallet.serve", description=(__doc__ or "").split("::")[0].strip()
    )
    parser.add_argument(
        "application",
        nargs="?",
        help="the ASGI application as module:attribute (default: from ASGI_APPLICATION)",
    )
    parser.add_argument(
        "--setup",
        action="append",
        metavar="COMMAND",
        help="a manage.py command run on the server's database first, repeatable "
        '(default: "migrate --noinput")',
    )
    args = parser.parse_args(argv)
    setup = [command.split() for command in args.setup or ["migrate --noinput"]]
    for stop_signal in STOP_SIGNALS:  # handlers, not a blocked mask: daphne would inherit a mask
        signal.signal(stop_signal, _stop)
    with tempfile.TemporaryDirectory(prefix="testwallet-serve-") as workdir:
        server = DaphneServer(args.application or _application(), setup_commands=setup, workdir=workdir)
        try:
            server.start()
            print(f"Serving {server.url}", flush=True)
            while True:
                signal.pause()
        except ServerFailedToStart as error:
            print(error, file=sys.stderr)
            return 1
        except _Stopped:
            return 0
        finally:
            server.stop()


class _Stopped(Exception):
    """Raised in the main thread by a stop signal."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


def _application() -> str:
    from django.conf import settings

    module, _, attribute = settings.ASGI_APPLICATION.rpartition(".")
    return f"{module}:{attribute}"


if __name__ == "__main__":
    sys.exit(main())
