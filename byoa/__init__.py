"""
Bring your own agent, the server side: a reusable Django app.

What a site's code uses, importable from ``byoa`` itself::

    from byoa import WalletCallError, aget_pairing, call_wallet

    async def clip(request):
        pairing = await aget_pairing(request, "geography")    # this browser session's, or None
        try:
            output = await call_wallet(pairing, "audio.transcribe", clip_input)
        except WalletCallError as exc:                        # NoPairing, WalletDeclined, ...
            logger.info("own mode: %s", type(exc).__name__)
            output = None                                     # answer in your own way

- ``call_wallet`` / ``stream_wallet``: the server -> wallet calls (``byoa.calls``); each
  outcome that is not an output is an exception under ``WalletCallError``
- ``aget_pairing``: this request's browser session's pairing for a manifest (``byoa.pairings``)
- ``get_manifest``, ``Manifest``, ``describe_manifest``: the installed manifests and what
  they ask, in plain words for the page (``byoa.manifests``, ``byoa.describe``)
- the exceptions, under one root ``ByoaError`` (``byoa.exceptions``)

The modules behind them:

- ``manifests``: the site's manifests, checked, and the exact bytes links carry
- ``views`` (``POST /byoa/code``, ``GET /byoa/wait``, ``POST /byoa/disconnect``): codes and
  links for the page, and the end of the pairing a link opened
- ``invitations``: the ``bringyourownagent://`` link and the endpoint it names
- ``endpoints``: the wallet's host rules for the endpoint a link carries
- ``routes``: the browser's route id, in a cookie and in the link's endpoint, which a proxy
  hashes so that a page and its wallet meet on one process (``routing``: the wallet's routes)
- ``consumers`` (``/byoa/ws``): the wallet's WebSocket
- ``calls``: ``call_wallet`` / ``stream_wallet``, the server -> wallet API;
  ``deadlines``: a call's time limits (timeout, acceptance window, hold)
- ``pairings``: pairings in the database
- ``hub``: what one process runs for BYOA, started and closed as one:
  ``connections`` (its live wallet connections: same-process calls skip the
  transport), ``transport`` (its inbox and the path to other processes: the
  channel layer, ``transport``, or a speed-up's, ``visitor_ai.speedups``),
  ``addresses`` (other processes' live addresses), ``processes``
  (liveness records, beat and sweep), ``receipts`` (call receipts, written in
  batches)
- ``conf``: the ``BYOA`` settings, each declared once; ``checks``: the system
  checks generated from them, and the manifests'
- ``admin``: pairings, pause and revoke, call receipts

The wire behaviour
follows specs/byoa-sites.md; ``byoa.protocol`` (frames, limits, close codes)
and ``byoa.wav`` (clips) need no Django, so a wallet shares them with the server
(``testwallet.direct``, the headless wallet, does).
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
    "WalletTimeout",
    "aget_pairing",
    "call_wallet",
    "describe_manifest",
    "get_manifest",
    "stream_wallet",
]

# public name -> (the module that defines it, its name there); the same names as __all__
_FACADE = {
    "call_wallet": ("byoa.calls", "call_wallet"),
    "stream_wallet": ("byoa.calls", "stream_wallet"),
    "aget_pairing": ("byoa.pairings", "aget_pairing"),
    "get_manifest": ("byoa.manifests", "get"),
    "Manifest": ("byoa.manifests", "Manifest"),
    # Not "describe": once byoa.describe is imported, the package's attribute of
    # that name is the module, and __getattr__ is no longer asked.
    "describe_manifest": ("byoa.describe", "describe"),
    "ByoaError": ("byoa.exceptions", "ByoaError"),
    "EndpointRefused": ("byoa.exceptions", "EndpointRefused"),
    "ManifestError": ("byoa.exceptions", "ManifestError"),
    "NotAClip": ("byoa.exceptions", "NotAClip"),
    "NotJSON": ("byoa.exceptions", "NotJSON"),
    "RateLimited": ("byoa.exceptions", "RateLimited"),
    "UnknownManifest": ("byoa.exceptions", "UnknownManifest"),
    "CallRefused": ("byoa.exceptions", "CallRefused"),
    "NoPairing": ("byoa.exceptions", "NoPairing"),
    "TooManyCalls": ("byoa.exceptions", "TooManyCalls"),
    "WalletCallError": ("byoa.exceptions", "WalletCallError"),
    "WalletDeclined": ("byoa.exceptions", "WalletDeclined"),
    "WalletLeft": ("byoa.exceptions", "WalletLeft"),
    "WalletNotConnected": ("byoa.exceptions", "WalletNotConnected"),
    "WalletOffline": ("byoa.exceptions", "WalletOffline"),
    "WalletProcessGone": ("byoa.exceptions", "WalletProcessGone"),
    "WalletTimeout": ("byoa.exceptions", "WalletTimeout"),
}

if TYPE_CHECKING:  # what editors and type checkers see; at run time, __getattr__ below
    from byoa.calls import call_wallet, stream_wallet
    from byoa.describe import describe as describe_manifest
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
    from byoa.manifests import Manifest
    from byoa.manifests import get as get_manifest
    from byoa.pairings import aget_pairing


# Django imports this package while it loads INSTALLED_APPS, before the app
# registry is ready, and the headless wallet imports byoa.protocol and byoa.wav
# with no Django at all. byoa.calls and byoa.pairings import models, which Django
# refuses before the registry is ready, so each name is imported on first use
# (PEP 562), never when the package is.
def __getattr__(name: str) -> Any:
    try:
        module, attribute = _FACADE[name]
    except KeyError:
        raise AttributeError(f"module 'byoa' has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), attribute)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
