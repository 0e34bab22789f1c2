"""
The exceptions of ``byoa``, under one root::

    ByoaError
    ├── ManifestError          a manifest file cannot be used          (also ImproperlyConfigured)
    ├── EndpointRefused        a link would carry an endpoint that     (also ImproperlyConfigured)
    │                          wallets refuse
    ├── UnknownManifest        a page asked for a manifest that is     (also LookupError)
    │                          not installed
    ├── RateLimited            too many codes asked for; carries retry_after
    ├── NotJSON                a frame of the direct link is not JSON  (also ValueError)
    └── NotAClip               audio is not a 16 kHz mono 16-bit PCM   (also ValueError)
                               WAV

Each keeps the nearest Django or Python base it had, so ``except
ImproperlyConfigured`` or ``except ValueError`` still catches it. ``ByoaError``,
``NotJSON`` and ``NotAClip`` are defined in ``byoa._errors``, which needs no
Django (a wallet reads frames and clips without it); the headless wallet's own
errors (``LinkRefused``, ``BackendError``) are ``testwallet.direct``'s.

No message ever contains a session code, a pairing token or call content.
"""

from collections.abc import Iterable

from django.core.exceptions import ImproperlyConfigured

from byoa._errors import ByoaError, NotAClip, NotJSON

__all__ = [
    "ByoaError",
    "EndpointRefused",
    "ManifestError",
    "NotAClip",
    "NotJSON",
    "RateLimited",
    "UnknownManifest",
]


class ManifestError(ByoaError, ImproperlyConfigured):
    """Raised when a manifest file is missing, not JSON, invalid or too large."""


class EndpointRefused(ByoaError, ImproperlyConfigured):
    """Raised when the endpoint a link would carry breaks the wallet's host rules (``byoa.endpoints``)."""

    def __init__(self, endpoint: str, reason: str) -> None:
        self.endpoint = endpoint
        self.reason = reason
        super().__init__(
            f"A link would send the wallet to {endpoint}, which an agent wallet refuses: {reason}. "
            "Set BYOA['ENDPOINT'] to the wss:// URL of the wallet route on the site's public DNS name "
            "(e.g. 'wss://game.example.org/byoa/ws'), or serve the page over https on such a name; "
            "for local tests only, turn DEBUG on (the wallet then needs BYOA_WALLET_DEV_LOCAL=1)."
        )


class UnknownManifest(ByoaError, LookupError):
    """Raised when a page asks for a manifest name that no installed app declares."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(
            f"No BYOA manifest is named {name!r}; the installed ones are: "
            + (", ".join(self.known) or "none (add a manifest.json beside an app's code)")
            + "."
        )


class RateLimited(ByoaError):
    """Raised when a client address or a browser session asks for too many codes."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"Too many session codes; try again in {retry_after} s.")
