"""
Every event between processes carries a MAC, and an event without a valid one
is dropped: whoever reaches the channel layer's Redis (or the ``redis_transport``
speed-up's) can neither forge a call for a wallet nor a result for a caller.

The key is derived from ``SECRET_KEY`` with Django's ``salted_hmac`` (the salt
names this use, so no other signature of the site is valid here); every
process of a site shares its ``SECRET_KEY`` already, for its sessions. An
event signed with one of ``SECRET_KEY_FALLBACKS`` is accepted too, so a key
rotates as Django's own signatures do.

Two forms, one per transport:

- ``sign_event`` / ``verified_event``: a dict event, as the channel layer
  carries it (msgpack under channels-redis), with the MAC in its ``mac`` field,
  computed over the event's JSON with sorted keys.
- ``seal`` / ``unseal``: bytes, as the Redis speed-up publishes them: the
  32-byte MAC, then the payload.

A MAC says that one of the site's processes wrote the event, not when: one
read off Redis could be sent again. Redis's password (``REDIS_URL``,
deploy/) keeps strangers from reading it in the first place.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from django.conf import settings
from django.utils.crypto import salted_hmac

__all__ = ["MAC_FIELD", "seal", "sign_event", "unseal", "verified_event"]

#: The field of a dict event that holds its MAC (hex).
MAC_FIELD = "mac"
_SALT = "byoa.events"
_MAC_BYTES = 32  # SHA-256


def _secrets() -> Iterable[str | bytes]:
    yield settings.SECRET_KEY
    yield from getattr(settings, "SECRET_KEY_FALLBACKS", ())


def _mac(payload: bytes, secret: str | bytes | None = None) -> bytes:
    return salted_hmac(_SALT, payload, secret=secret, algorithm="sha256").digest()


def _canonical(event: Mapping[str, object]) -> bytes:
    return orjson.dumps(
        {key: value for key, value in event.items() if key != MAC_FIELD}, option=orjson.OPT_SORT_KEYS
    )


def sign_event(event: Mapping[str, object]) -> dict[str, Any]:
    """Return the event with its MAC."""
    return {**event, MAC_FIELD: _mac(_canonical(event)).hex()}


def verified_event(event: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the event without its MAC when the MAC is valid, else None."""
    said = event.get(MAC_FIELD)
    if not isinstance(said, str):
        return None
    try:
        canonical = _canonical(event)
    except (TypeError, orjson.JSONEncodeError):  # not an event of ours: nothing of ours is unencodable
        return None
    if not _matches(canonical, said.encode("ascii", "replace")):
        return None
    return {key: value for key, value in event.items() if key != MAC_FIELD}


def seal(payload: bytes) -> bytes:
    """Return the payload behind its MAC."""
    return _mac(payload) + payload


def unseal(data: bytes) -> bytes | None:
    """Return the payload when the MAC in front of it is valid, else None."""
    if len(data) < _MAC_BYTES:
        return None
    said, payload = data[:_MAC_BYTES], data[_MAC_BYTES:]
    return payload if any(hmac.compare_digest(_mac(payload, secret), said) for secret in _secrets()) else None


def _matches(canonical: bytes, said_hex: bytes) -> bool:
    return any(hmac.compare_digest(_mac(canonical, secret).hex().encode(), said_hex) for secret in _secrets())
