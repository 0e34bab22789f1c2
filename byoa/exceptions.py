"""
The exceptions of ``byoa``, server and headless wallet alike::

    Exception
    ├── django.core.exceptions.ImproperlyConfigured
    │   ├── ManifestError          a manifest file cannot be used
    │   └── EndpointRefused        a link would carry an endpoint that wallets refuse
    ├── LookupError
    │   └── UnknownManifest        a page asked for a manifest that is not installed
    ├── RateLimited                too many codes asked for; carries retry_after
    ├── BackendError               a headless wallet's backend cannot answer a call
    └── ValueError
        ├── LinkRefused            the wallet refuses a link (carries the check that failed)
        ├── NotJSON                a frame of the direct link is not JSON
        └── NotAClip               audio is not a 16 kHz mono 16-bit PCM WAV

No message ever contains a session code, a pairing token or call content.
"""

from django.core.exceptions import ImproperlyConfigured


class ManifestError(ImproperlyConfigured):
    """Raised when a manifest file is missing, not JSON, invalid or too large."""


class EndpointRefused(ImproperlyConfigured):
    """Raised when the endpoint a link would carry breaks the wallet's host rules (``byoa.endpoints``)."""

    def __init__(self, endpoint, reason):
        self.endpoint = endpoint
        self.reason = reason
        super().__init__(
            f"A link would send the wallet to {endpoint}, which an agent wallet refuses: {reason}. "
            "Set BYOA['ENDPOINT'] to the wss:// URL of the wallet route on the site's public DNS name "
            "(e.g. 'wss://game.example.org/byoa/ws'), or serve the page over https on such a name; "
            "for local tests only, turn DEBUG on (the wallet then needs BYOA_WALLET_DEV_LOCAL=1)."
        )


class UnknownManifest(LookupError):
    """Raised when a page asks for a manifest name that no installed app declares."""

    def __init__(self, name, known):
        self.name = name
        self.known = sorted(known)
        super().__init__(
            f"No BYOA manifest is named {name!r}; the installed ones are: "
            + (", ".join(self.known) or "none (add a manifest.json beside an app's code)")
            + "."
        )


class RateLimited(Exception):
    """Raised when a client address or a browser session asks for too many codes."""

    def __init__(self, retry_after):
        self.retry_after = retry_after
        super().__init__(f"Too many session codes; try again in {retry_after} s.")


class BackendError(Exception):
    """Raised when a headless wallet's backend cannot answer a call."""


class NotJSON(ValueError):
    """Raised when a text frame of the direct link is not JSON."""


class NotAClip(ValueError):
    """Raised when the bytes are not a 16 kHz mono 16-bit PCM WAV."""


class LinkRefused(ValueError):
    """Raised when the headless wallet refuses a link; ``check`` names the failed check."""

    def __init__(self, check, message):
        self.check = check
        super().__init__(message)
