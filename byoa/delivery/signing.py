"""
The MAC every event between server processes carries, over the event and the
channel (or group) it is sent to, so that whoever reaches the channel layer's
Redis can forge no call for a wallet and no result for a caller, nor send an
event it read on one channel to another. The key is derived from ``SECRET_KEY``
(and its fallbacks) with Django's ``salted_hmac``; an event without a valid MAC is dropped.
"""

import hmac
from collections.abc import Mapping
from typing import Any

import orjson
from django.conf import settings
from django.utils.crypto import salted_hmac

__all__ = ["MAC_FIELD", "sign_event", "verified_event"]

#: The field of an event that holds its MAC (hex).
MAC_FIELD = "mac"
_SALT = "byoa.events"


def _mac(event: Mapping[str, object], to: str, secret: str | bytes) -> str:
    # Over JSON with sorted keys: the layer's own encoding (msgpack) need not be canonical.
    fields = {k: v for k, v in event.items() if k != MAC_FIELD}
    payload = orjson.dumps({"to": to, "event": fields}, option=orjson.OPT_SORT_KEYS)
    return salted_hmac(_SALT, payload, secret=secret, algorithm="sha256").hexdigest()


def sign_event(event: Mapping[str, object], to: str) -> dict[str, Any]:
    """Return the event with its MAC, for the channel or group ``to``."""
    return {**event, MAC_FIELD: _mac(event, to, settings.SECRET_KEY)}


def verified_event(event: Mapping[str, Any], to: str) -> dict[str, Any] | None:
    """Return the event without its MAC when the MAC is valid for ``to`` (any current or fallback key), else None."""
    said = event.get(MAC_FIELD)
    if not isinstance(said, str):
        return None
    try:
        secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ())]
        if not any(hmac.compare_digest(_mac(event, to, secret), said) for secret in secrets):
            return None
    except (TypeError, orjson.JSONEncodeError):  # not an event of ours: ours always encode
        return None
    return {key: value for key, value in event.items() if key != MAC_FIELD}
