"""
A server's set-up commands, run one after another in one Python process, as
:func:`django.core.management.call_command` runs them, without the system checks::

    python -m testwallet.setup_commands '[["migrate", "--noinput"], ["load_catalog"]]'

A failing command is named (``'django-admin migrate --noinput' failed``) with its error, none
after it runs, and the exit status is 1. Why one process: docs/explanation/testwallet.md.
"""

import json
import sys
import traceback
from collections.abc import Sequence

__all__ = ["main", "run"]


def run(commands: Sequence[Sequence[str]]) -> int:
    """Set Django up, run ``commands`` in order; return 0, or 1 after saying which one failed."""
    import django
    from django.core.management import call_command

    try:
        django.setup()
    except Exception:  # whatever the settings raise: no command can run
        print("Django could not be set up for the set-up commands:", file=sys.stderr)
        traceback.print_exc()
        return 1
    for command in commands:
        try:
            call_command(*command)
        except Exception:  # whatever the command raises: the set-up stops here
            print(f"'django-admin {' '.join(command)}' failed:", file=sys.stderr)
            traceback.print_exc()
            return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the commands given as one JSON list of argument lists."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    return run(json.loads(arguments[0]))


if __name__ == "__main__":
    sys.exit(main())
