"""
A server's set-up commands, run one after another in one Python process.

``DaphneServer`` prepares its working directory with management commands
(``migrate``, ``load_catalog``, ``collectstatic`` ...). Run each as its own
``django-admin`` process, and each would import Django and the project and run
every system check again, which import each app's MCP tools and with them the
MCP SDK: most of a set-up's CPU. Here the commands share one process and run as
:func:`django.core.management.call_command` runs them, without the system
checks (``manage.py check`` runs those, once, as ``make check`` does), so a
set-up costs about what its commands themselves do::

    python -m testwallet.setup_commands '[["migrate", "--noinput"], ["load_catalog"]]'

When a command fails, it prints which one (as ``'django-admin migrate
--noinput' failed``) with its error, runs none after it, and exits 1.
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
