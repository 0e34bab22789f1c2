"""
The headless wallet's own exceptions: ``BackendError`` (a backend cannot answer a call, which is
answered ``ok: false``) and ``LinkRefused``, a ``ValueError`` (the wallet refuses a link;
``check`` names the check that failed). The errors of reading the wire are ``byoa``'s
(``byoa.wire.protocol``, ``byoa.wire.wav``). No message contains a session code, a pairing token or call
content.
"""

__all__ = ["BackendError", "LinkRefused"]


class BackendError(Exception):
    """Raised when a headless wallet's backend cannot answer a call."""


class LinkRefused(ValueError):
    """Raised when the headless wallet refuses a link; ``check`` names the failed check, ``fix`` what to change."""

    def __init__(self, check: str, message: str, fix: str = "") -> None:
        self.check = check
        self.fix = fix
        super().__init__(f"{message}: {fix}" if fix else message)
