"""
The stand-ins' scripts as static files, with DEBUG on only.

``{% testwallet_scripts %}`` names them at ``testwallet/<name>.js``; this finder finds them
in the package (``testwallet/stubs``) while DEBUG is on and lists nothing otherwise, so that
``collectstatic`` for production copies no test code. A site that uses the relay adds it to
``STATICFILES_FINDERS``, after Django's two.
"""

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, overload

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.contrib.staticfiles.utils import matches_patterns
from django.core.files.storage import FileSystemStorage

__all__ = ["StandInFinder"]

#: Where the scripts are (a link to frontend/testwallet in the repository, a folder in the wheel).
STUBS = Path(__file__).resolve().parent.parent / "stubs"
PREFIX = "testwallet"


class StandInFinder(BaseFinder):
    """Find ``testwallet/<name>.js``, the in-page stand-ins, when DEBUG is on; nothing otherwise."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=STUBS)
        self.storage.prefix = PREFIX  # type: ignore[attr-defined]  # what collectstatic puts before each name

    def check(self, **kwargs: Any) -> list[Any]:
        """Return no errors: the scripts ship with the package."""
        return []

    def scripts(self) -> list[str]:
        """Return the scripts' names, or none while DEBUG is off."""
        if not settings.DEBUG:
            return []
        return sorted(path.name for path in STUBS.glob("*.js"))

    @overload
    def find(self, path: str, find_all: Literal[False] = False) -> str | None: ...
    @overload
    def find(self, path: str, find_all: Literal[True]) -> list[str]: ...
    def find(self, path: str, find_all: bool = False) -> str | list[str] | None:
        """Return the file of ``testwallet/<name>.js`` (in a list with ``find_all``), or none."""
        folder, _, name = path.partition("/")
        found = [str(STUBS / name)] if folder == PREFIX and name in self.scripts() else []
        # [] rather than None when nothing is found, as Django's own finders: its find() keeps
        # whatever each finder returns, and a None would be kept as a match.
        return found if find_all else (found[0] if found else [])

    def list(self, ignore_patterns: Iterable[str] | None) -> Iterator[tuple[str, FileSystemStorage]]:
        """Yield each script's name and this finder's storage (none while DEBUG is off)."""
        for name in self.scripts():
            if not matches_patterns(name, ignore_patterns or ()):
                yield name, self.storage
