"""
The secrets of the direct link: session codes and pairing tokens, made and
digested in one place so that no other module handles them raw for long.
Both are stored only as their digests (``digest``).
"""

import hashlib
import secrets

from django.utils.crypto import salted_hmac

CODE_BYTES = 24  # 192 random bits; the spec asks for 128 or more
PAIRING_BYTES = 32  # 256 random bits; the spec asks for 192 or more
WAIT_ID_BYTES = 16


def new_code() -> str:
    """Return a fresh session code, URL-safe."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_pairing_token() -> str:
    """Return a fresh pairing token, URL-safe."""
    return secrets.token_urlsafe(PAIRING_BYTES)


def new_wait_id() -> str:
    """Return a fresh handle for /byoa/wait."""
    return secrets.token_urlsafe(WAIT_ID_BYTES)


def digest(secret: str) -> str:
    """Return the digest a code or token is stored as."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def client_digest(address: str | None) -> str:
    """Return a keyed digest of a client address, for counting without keeping it."""
    return salted_hmac("byoa.client-address", address or "", algorithm="sha256").hexdigest()
