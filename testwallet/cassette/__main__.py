"""``python -m testwallet.cassette serve FILE [--record none|new|all]``: see testwallet/cassette/serve.py."""

import sys

from testwallet.cassette import serve

COMMANDS = {"serve": serve.main}


def main(argv: list[str]) -> int:
    """Run the command `argv` names; return the exit status."""
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m testwallet.cassette {{{','.join(COMMANDS)}}} ...", file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
