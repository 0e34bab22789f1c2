"""
``python -m testwallet.cassette serve FILE [--record none|new|all]``: a cassette served on a
loopback port, to AI Wallet's chats and to OpenAI clients (testwallet/cassette/serve.py).
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
        help="serve FILE on a loopback port (POST /v1/wallet/chat: a wallet chat, answered with the "
        "wallet's events as JSON Lines; POST /v1/chat/completions: OpenAI's format), print "
        "'Serving <url>', and serve until SIGTERM or SIGINT",
        description="Serve a cassette on a loopback port: to AI Wallet's chats, and as an "
        "OpenAI-compatible model server.",
    )
    serve.add_arguments(serving)
    args = parser.parse_args(argv)
    return serve.main(args)


if __name__ == "__main__":
    sys.exit(main())
