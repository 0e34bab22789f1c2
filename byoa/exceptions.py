"""
The exceptions of ``byoa``, under one root, ``ByoaError``; a call to a wallet raises one
``WalletCallError`` subclass per outcome. Each keeps the nearest Django or Python base it had,
so ``except ImproperlyConfigured`` or ``except ValueError`` still catches it. ``ByoaError``,
``NotJSON`` and ``NotAClip`` are defined in ``byoa.wire._errors``, which needs no Django. No message
ever contains a session code, a pairing token or call content. The whole tree, with what each
means: docs/explanation/modules.md.
"""

from collections.abc import Iterable

from django.core.exceptions import ImproperlyConfigured

from byoa.wire._errors import ByoaError, NotAClip, NotJSON

__all__ = [
    "ByoaError",
    "CallRefused",
    "EndpointRefused",
    "ManifestError",
    "NoPairing",
    "NotAClip",
    "NotJSON",
    "RateLimited",
    "TooManyCalls",
    "UnknownManifest",
    "WalletCallError",
    "WalletDeclined",
    "WalletLeft",
    "WalletNotConnected",
    "WalletOffline",
    "WalletProcessGone",
    "WalletTimeout",
]


class ManifestError(ByoaError, ImproperlyConfigured):
    """Raised when a manifest file is missing, not JSON, invalid or too large."""


class EndpointRefused(ByoaError, ImproperlyConfigured):
    """Raised when the endpoint a link would carry breaks the wallet's host rules (``byoa.wire.endpoints``)."""

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


class WalletCallError(ByoaError):
    """Raised when a call to a visitor's wallet ends without an output: the root of the call's outcomes.

    ``pairing_id`` (None when there was no pairing) and ``skill`` say which
    call; neither the input nor the pairing's token is ever kept. Raised as
    itself only for an outcome this version cannot name (a newer process's).
    """

    def __init__(self, pairing_id: int | None, skill: str, message: str = "") -> None:
        self.pairing_id = pairing_id
        self.skill = skill
        super().__init__(
            message
            or f"The call of {skill} to the wallet of pairing {pairing_id} failed for a reason this "
            "version of byoa cannot name: run the same byoa version in every server process."
        )


class WalletNotConnected(WalletCallError):
    """Raised when no wallet took the call: there was no pairing, or its wallet is not connected now."""


class NoPairing(WalletNotConnected):
    """Raised when the site's code called with no pairing (``aget_pairing`` found none for the session)."""

    def __init__(self, skill: str) -> None:
        super().__init__(
            None,
            skill,
            f"No pairing to call {skill} on: this browser session has not connected a wallet. "
            "Offer the visitor a link (POST /byoa/code) or the extension, or answer in your own way.",
        )


class WalletOffline(WalletNotConnected):
    """Raised when the pairing's wallet has no live connection (away, paused, revoked, or closing)."""

    def __init__(self, pairing_id: int, skill: str) -> None:
        super().__init__(
            pairing_id,
            skill,
            f"The wallet of pairing {pairing_id} is not connected now, so {skill} was not sent. "
            "Answer in your own way, or ask the visitor to open the link again; "
            "aget_pairing(request, name, connected=True) finds only connected wallets.",
        )


class CallRefused(WalletCallError):
    """Raised when the pairing's grant does not allow the call (skill, model, expiry): the wallet never saw it."""

    def __init__(self, pairing_id: int, skill: str, message: str = "") -> None:
        super().__init__(
            pairing_id,
            skill,
            message
            or f"The grant of pairing {pairing_id} does not allow this call of {skill}, so it was not sent: "
            "call only skills the manifest asks for, name only a model the grant lists (params['model']), "
            "and after the grant's expiresAt ask the visitor to connect again.",
        )


class TooManyCalls(CallRefused):
    """Raised when the grant's ``limits.maxParallelCalls`` calls (4 when absent) are already in flight."""

    def __init__(self, pairing_id: int, skill: str) -> None:
        super().__init__(
            pairing_id,
            skill,
            f"The wallet of pairing {pairing_id} already has its grant's maxParallelCalls calls in flight, "
            f"so {skill} was not sent: wait for one to end (a timed-out call counts until its result or "
            "the grant's maxCallSeconds), or make fewer calls at once.",
        )


class WalletDeclined(WalletCallError):
    """Raised when the wallet answered the call ``ok: false``, or ``ok: true`` without an output object.

    The spec's ``{ok: false}`` carries no reason: a decline, a failed model and
    a refused permission look the same, to the server as to a page.
    """

    def __init__(self, pairing_id: int, skill: str) -> None:
        super().__init__(
            pairing_id,
            skill,
            f"The wallet of pairing {pairing_id} answered {skill} with ok: false (the protocol gives no "
            "reason): answer in your own way; calling again may get the same answer.",
        )


class WalletTimeout(WalletCallError, TimeoutError):
    """Raised when no result came within the call's timeout (``timeout=``, else ``BYOA['CALL_SECONDS']``)."""

    def __init__(self, pairing_id: int, skill: str, timeout: float) -> None:
        self.timeout = timeout
        super().__init__(
            pairing_id,
            skill,
            f"The wallet of pairing {pairing_id} gave no result for {skill} within {timeout:g} s: pass a "
            "longer timeout= to the call, or set BYOA['CALL_SECONDS'] (the wallet may still be working; "
            "its late result is dropped).",
        )


class WalletLeft(WalletCallError):
    """Raised when the wallet's connection closed while the call was in flight (its result never comes)."""

    def __init__(self, pairing_id: int, skill: str) -> None:
        super().__init__(
            pairing_id,
            skill,
            f"The wallet of pairing {pairing_id} disconnected during the call of {skill}: answer in your "
            "own way, or call again once it is back (aget_pairing(..., connected=True) tells).",
        )


class WalletProcessGone(WalletCallError):
    """Raised when the server process holding the wallet's connection cannot be reached.

    The channel layer refused the call (its warning is in the log), or nothing
    came back by the call's timeout and the grace second after it: that process
    died, or the layer lost the call's events (docs: "Delivery").
    """

    def __init__(self, pairing_id: int, skill: str) -> None:
        super().__init__(
            pairing_id,
            skill,
            f"The server process holding the wallet connection of pairing {pairing_id} could not be "
            f"reached for {skill} (it stopped, or the channel layer failed: see the log's warnings). "
            "The wallet reconnects to a live process; check that every process shares the channel "
            "layer (REDIS_URL) and the database.",
        )
