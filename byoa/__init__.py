"""
Bring your own agent, the server side: a reusable Django app. What a site's code uses::

    from byoa import WalletCallError, aget_pairing, call_wallet

Every name in ``__all__`` is imported on first use (PEP 562): Django imports
this package before its app registry is ready, and a wallet imports
``byoa.wire.protocol`` and ``byoa.wire.wav`` with no Django at all.
"""

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "ByoaError",
    "CallRefused",
    "EndpointRefused",
    "Manifest",
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
    "WalletStream",
    "WalletTimeout",
    "aget_pairing",
    "call_wallet",
    "describe_manifest",
    "get_manifest",
    "stream_wallet",
]

# The modules that define the names of __all__, searched in this order.
_HOMES = (
    "byoa.exceptions",
    "byoa.calls",
    "byoa.pairing.pairings",
    "byoa.pairing.manifests",
    "byoa.pairing.describe",
)

if TYPE_CHECKING:  # for type checkers, the same names (tests/byoa/test_facade.py compares them)
    from byoa.calls import WalletStream, call_wallet, stream_wallet
    from byoa.exceptions import (
        ByoaError,
        CallRefused,
        EndpointRefused,
        ManifestError,
        NoPairing,
        NotAClip,
        NotJSON,
        RateLimited,
        TooManyCalls,
        UnknownManifest,
        WalletCallError,
        WalletDeclined,
        WalletLeft,
        WalletNotConnected,
        WalletOffline,
        WalletProcessGone,
        WalletTimeout,
    )
    from byoa.pairing.describe import describe_manifest
    from byoa.pairing.manifests import Manifest, get_manifest
    from byoa.pairing.pairings import aget_pairing


def __getattr__(name: str) -> Any:
    if name in __all__:
        for home in _HOMES:
            module = importlib.import_module(home)
            if name in getattr(module, "__all__", ()):
                return getattr(module, name)
    raise AttributeError(f"module 'byoa' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
