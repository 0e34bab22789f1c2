"""
One-time session codes: issued to a browser session for one manifest, rate
limited, consumed at most once by a wallet's hello, and watched by the page.

Rate limits count the code rows themselves, so they hold across server
processes without a shared cache. Two requests racing at the very edge of a
limit may both pass; the limit is a brake on abuse, not an exact quota.
"""

import math
from datetime import datetime, timedelta
from enum import StrEnum

from django.db import transaction
from django.db.models import QuerySet

from byoa import clock
from byoa.conf import byoa_setting
from byoa.exceptions import RateLimited
from byoa.models import Pairing, SessionCode
from byoa.pairing import tokens
from byoa.pairing.manifests import Manifest

# Rows are kept a while after they expire so that a late /byoa/wait still says
# "expired"; the rate window must be covered too.
_KEEP = timedelta(minutes=10)


class WaitState(StrEnum):
    """What ``GET /byoa/wait`` tells the page of its code."""

    WAITING = "waiting"  # issued, not used, not expired
    CONNECTED = "connected"  # a wallet said hello with it
    EXPIRED = "expired"  # past its time unused, unknown, or not this session's


def issue(visitor: str, client_address: str | None, manifest: Manifest) -> tuple[str, str]:
    """Return (code, wait_id) for a browser session and a manifest; raise RateLimited."""
    now = clock.now()
    client = tokens.client_digest(client_address)
    _check_rate(SessionCode.objects.filter(client_digest=client), byoa_setting("CODES_PER_ADDRESS"), now)
    _check_rate(SessionCode.objects.filter(visitor=visitor), byoa_setting("CODES_PER_SESSION"), now)
    SessionCode.objects.filter(expires_at__lt=now - _KEEP).delete()
    code, wait_id = tokens.new_code(), tokens.new_wait_id()
    SessionCode.objects.create(
        code_digest=tokens.digest(code),
        wait_id=wait_id,
        visitor=visitor,
        client_digest=client,
        manifest_name=manifest.name,
        manifest=manifest.encoded,
        created_at=now,
        expires_at=now + timedelta(seconds=byoa_setting("CODE_SECONDS")),
    )
    return code, wait_id


def _check_rate(queryset: QuerySet[SessionCode], limit: int, now: datetime) -> None:
    window = timedelta(seconds=byoa_setting("RATE_WINDOW_SECONDS"))
    recent = queryset.filter(created_at__gt=now - window).order_by("created_at")
    times = list(recent.values_list("created_at", flat=True)[: limit + 1])
    if len(times) >= limit:
        # The oldest code in the window leaves it first, freeing one place.
        oldest_leaves = times[0] + window
        raise RateLimited(max(1, math.ceil((oldest_leaves - now).total_seconds())))


def consume(code: object) -> SessionCode | None:
    """Mark an unused, unexpired code used and return its row; None for any other code."""
    if not isinstance(code, str) or not 1 <= len(code) <= 256:
        return None
    now = clock.now()
    digest = tokens.digest(code)
    with transaction.atomic():
        # One UPDATE decides: of two wallets racing with the same code, one wins.
        won = SessionCode.objects.filter(code_digest=digest, used_at__isnull=True, expires_at__gt=now).update(
            used_at=now
        )
        if not won:
            return None
        return SessionCode.objects.get(code_digest=digest)


def wait_state(wait_id: object, visitor: str | None) -> WaitState:
    """Return the WaitState of a code as the browser session ``visitor`` may see it."""
    if not isinstance(wait_id, str) or not visitor:
        return WaitState.EXPIRED
    row = SessionCode.objects.filter(wait_id=wait_id, visitor=visitor).first()
    if row is None:
        return WaitState.EXPIRED
    if row.used_at is not None:
        return WaitState.CONNECTED
    return WaitState.WAITING if row.expires_at > clock.now() else WaitState.EXPIRED


def connected_pairing(wait_id: object, visitor: str | None) -> Pairing | None:
    """Return the pairing a wallet opened with this browser session's code, or None.

    Only the session that asked for the code finds it (``visitor``), so a page can
    show and end its own link's pairing and nobody else's.
    """
    if not isinstance(wait_id, str) or not visitor:
        return None
    row = (
        SessionCode.objects.filter(wait_id=wait_id, visitor=visitor, used_at__isnull=False)
        .select_related("pairing")
        .first()
    )
    return row.pairing if row is not None else None
