"""The cassette's errors, each naming the file.

CassetteError
├── CassetteUnreadable      (missing, not JSON, truncated, a newer format)
└── NotRecorded             (a request the cassette has no answer for, in replay)
"""

from pathlib import Path


class CassetteError(Exception):
    """Raised when a cassette cannot be used; the message names the file and the fix."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{message} (cassette {path})")
        self.path = Path(path)
        self.message = str(self)


class CassetteUnreadable(CassetteError):
    """Raised when a cassette is not there, is not JSON, is truncated or is of a newer format."""


class NotRecorded(CassetteError):
    """Raised in replay when a request has no recording: says which, and how the nearest one differs."""

    def __init__(self, path: Path | str, message: str, asked: str, nearest: str) -> None:
        super().__init__(path, message)
        self.asked = asked
        self.nearest = nearest
