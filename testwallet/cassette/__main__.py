"""
``python -m testwallet.cassette serve FILE [--record none|new|all]``: a cassette served as an
OpenAI-compatible model server on a loopback port (testwallet/cassette/serve.py).
"""

import argparse
import sys
from collections.abc import Sequence

from testwallet.cassette import serve


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command `argv` names; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m testwallet.cassette", description="Recorded answers of a model (testwallet.cassette)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serving = commands.add_parser(
        "serve",
        help="serve FILE as an OpenAI-compatible model server (POST /v1/chat/completions) on a "
        "loopback port, print 'Serving <url>', and serve until SIGTERM or SIGINT",
        description="Serve a cassette as an OpenAI-compatible model server on a loopback port.",
    )
    serve.add_arguments(serving)
    args = parser.parse_args(argv)
    return serve.main(args)


if __name__ == "__main__":
    sys.exit(main())
