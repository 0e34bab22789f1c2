"""
Pairings in the database: opened by a hello with a code, resumed by a hello
with a pairing token, attached to the one live connection (its channel name),
and closed; and the pairing of a request's browser session (``aget_pairing``).
"""

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from django.db import DatabaseError, close_old_connections, transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from byoa import clock
from byoa.conf import byoa_setting
from byoa.delivery.events import announce_move, replies, send_event, wallet_connections
from byoa.exceptions import ManifestError, UnknownManifest
from byoa.models import Pairing
from byoa.pairing import codes, manifests, session_pairings, tokens, visitor_ids
from byoa.pairing.grants import Grant, warn_unreadable
from byoa.wire.protocol import Frame

__all__ = ["aget_pairing", "live_channel", "stop_pairings"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opened:
    """What a valid hello leads to."""

    pairing_id: int
    token: str  # sent once in the welcome, never stored or logged
    manifest: str  # the base64url text the welcome echoes
    grant: Grant
    previous_channel: str  # the older live connection of this pairing, or ""


def _open(hello: Frame, channel_name: str) -> Opened | None:
    """Return Opened for a valid hello, or None (bad-session)."""
    said = hello.get("wallet")
    said = said if isinstance(said, dict) else {}
    wallet = {key: str(said[key])[:100] for key in ("name", "version") if key in said}
    session, token = hello.get("session"), hello.get("pairing")
    try:
        if isinstance(session, str):
            return _open_with_code(session, hello.get("grant"), wallet, channel_name)
        if session is None and isinstance(token, str):
            return _resume(token, hello.get("grant"), wallet, channel_name)
    except DatabaseError as exc:
        # A wallet must not crash its connection through the database: it gets
        # bad-session. The error's text may quote the row, so only its class is logged.
        logger.warning("BYOA could not open a pairing from a hello (%s)", type(exc).__name__)
    return None


def _open_with_code(
    code: str, grant_value: object, wallet: dict[str, str], channel_name: str
) -> Opened | None:
    now = clock.now()
    with transaction.atomic():
        row = codes.consume(code)
        if row is None:
            return None
        # What the grant does not say readably, the link's manifest says: the visitor consented to it.
        grant, unreadable = Grant.read(grant_value, Grant.from_manifest(manifests.decode(row.manifest)))
        token = tokens.new_pairing_token()
        pairing = Pairing.objects.create(
            token_digest=tokens.digest(token),
            visitor=row.visitor,
            manifest_name=row.manifest_name,
            grant=grant.as_json(),
            wallet=wallet,
            channel_name=channel_name,
            created_at=now,
            last_seen=now,
        )
        row.pairing = pairing
        row.save(update_fields=["pairing"])
    session_pairings.forget_visitor(row.visitor, row.manifest_name)  # a newer pairing: found from now on
    warn_unreadable(unreadable, pairing.pk, "the manifest's", wallet)
    return Opened(pairing.pk, token, row.manifest, grant, "")


def _resume(token: str, grant_value: object, wallet: dict[str, str], channel_name: str) -> Opened | None:
    if not 1 <= len(token) <= 256:
        return None
    with transaction.atomic():
        pairing = (
            Pairing.objects.select_for_update()
            .filter(token_digest=tokens.digest(token), status=Pairing.Status.ACTIVE)
            .first()
        )
        if pairing is None:
            return None
        try:
            manifest = manifests.get_manifest(pairing.manifest_name)  # the site's current manifest
        except (UnknownManifest, ManifestError):
            return None
        grant, unreadable = Grant.read(grant_value, Grant.from_manifest(manifest.data))
        previous = pairing.channel_name
        pairing.channel_name = channel_name
        pairing.grant, pairing.wallet, pairing.last_seen = grant.as_json(), wallet, clock.now()
        pairing.save(update_fields=["channel_name", "grant", "wallet", "last_seen"])
    session_pairings.forget_visitor(pairing.visitor, pairing.manifest_name)  # it may be the newest again
    warn_unreadable(unreadable, pairing.pk, "the manifest's", wallet)
    return Opened(pairing.pk, token, manifest.encoded, grant, previous if previous != channel_name else "")


def _detach(pairing_id: int, channel_name: str) -> None:
    # Only this connection's own mark: a newer connection may have replaced it.
    mine = Pairing.objects.filter(pk=pairing_id, channel_name=channel_name)
    mine.update(channel_name="", last_seen=clock.now())


def detach_at_exit(channel_names: Iterable[str]) -> None:
    """Mark away, at the process's exit, the pairings of its connections that are still attached.

    Daphne cancels its consumers at SIGTERM and its loop may stop before their own detach is
    written; uvicorn lets them end first (and ends its process without exit handlers).
    """
    names = list(channel_names)
    if names:
        try:
            close_old_connections()
            Pairing.objects.filter(channel_name__in=names).update(channel_name="", last_seen=clock.now())
        except Exception as exc:  # the database may be gone before us: LIVE_SECONDS ends them
            logger.warning("BYOA could not mark its wallets away at exit (%s)", type(exc).__name__)


def _touch(pairing_id: int, channel_name: str) -> bool:
    """Mark an active pairing seen now; return False when it is not active, or another connection holds it."""
    ours = Pairing.objects.filter(pk=pairing_id, status=Pairing.Status.ACTIVE, channel_name=channel_name)
    return ours.update(last_seen=clock.now()) == 1


def _record_grant(pairing_id: int, grant: Grant) -> None:
    Pairing.objects.filter(pk=pairing_id).update(grant=grant.as_json(), last_seen=clock.now())


open_from_hello = database_sync_to_async(_open)
detach = database_sync_to_async(_detach)
touch = database_sync_to_async(_touch)
record_grant = database_sync_to_async(_record_grant)


async def live_channel(pairing_id: int) -> str:
    """Return the channel name of an active pairing's live connection, or "" when it has none.

    A connection not seen (hello or ping, recorded at least every minute) for
    ``BYOA["LIVE_SECONDS"]`` counts as gone.
    """
    connection = wallet_connections.get(pairing_id)
    if connection is not None:
        return connection.channel_name
    kept = replies.known_channel(pairing_id)
    if kept is not None:
        return kept
    moves_heard = replies.moves_heard()
    channel = await sync_to_async(_live_channel)(pairing_id)
    if channel:
        replies.keep_channel(pairing_id, channel, byoa_setting("PAIRING_SECONDS"), moves_heard)
    return channel


def _live_channel(pairing_id: int) -> str:
    seen_since = clock.now() - timedelta(seconds=byoa_setting("LIVE_SECONDS"))
    live = Pairing.objects.filter(pk=pairing_id, status=Pairing.Status.ACTIVE, last_seen__gte=seen_since)
    return live.values_list("channel_name", flat=True).first() or ""


async def for_visitor(visitor: str | None, manifest_name: str) -> Pairing | None:
    """Return the newest active pairing of a browser session for the manifest of this name, or None."""
    if not visitor:
        return None
    return await (
        Pairing.objects.filter(visitor=visitor, manifest_name=manifest_name, status=Pairing.Status.ACTIVE)
        .order_by("-created_at")
        .afirst()
    )


async def aget_pairing(
    request: HttpRequest, manifest_name: str, *, connected: bool = False
) -> Pairing | None:
    """Return the newest active pairing of this request's browser session for a manifest, or None.

    The pairing belongs to the browser session that asked for the link's code
    (``byoa.pairing.visitor_ids``); a session that never asked has none, and none is
    created. With ``connected=True``, return it only while its wallet is
    connected now; otherwise ``call_wallet`` raises ``WalletOffline`` at once.
    A pairing found is kept for the session ``BYOA["PAIRING_SECONDS"]`` (``byoa.pairing.session_pairings``).
    """
    session_key = request.session.session_key  # the cookie's: reading it loads nothing
    pairing = session_pairings.get(session_key, manifest_name)
    if pairing is None:
        pairing = await for_visitor(await visitor_ids.aexisting_visitor_id(request), manifest_name)
        if pairing is not None:
            session_pairings.put(session_key, manifest_name, pairing)
    if pairing is None or (connected and not await live_channel(pairing.pk)):
        return None
    return pairing


def stop_pairings(queryset: QuerySet[Pairing], status: Pairing.Status) -> tuple[int, int]:
    """Pause or revoke pairings, then close their live connections; return (pairings, connections)."""
    rows = list(queryset.values_list("pk", "channel_name"))  # before the update changes what it matches
    # The status first: a wallet coming back between the two steps is refused.
    count = Pairing.objects.filter(pk__in=[pk for pk, _channel in rows]).update(status=status)
    return count, _stopped(rows)


def _stopped(rows: Sequence[tuple[int, str]]) -> int:
    """Tell this process, the others and each live connection that these pairings stopped; return how many live."""
    for pk, channel in rows:
        wallet_connections.pop(pk, None)  # this process's calls to it stop at once
        session_pairings.forget_pairing(pk)
        if channel:  # other processes read its channel again: no longer an active pairing's
            async_to_sync(announce_move)(pk)
    # At most once: a lost close is caught by the connection's own status check at its next ping.
    channels = [channel for _pk, channel in rows if channel]
    for channel in channels:
        async_to_sync(send_event)(channel, {"type": "byoa.close"})
    return len(channels)


def forget_logged_out(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    """Called on Django's ``user_logged_out``: the session's kept pairings are forgotten (its key ends)."""
    session = getattr(request, "session", None)
    if session is not None:
        session_pairings.forget_session(session.session_key)


def forget_deleted(sender: type[Pairing], instance: Pairing, using: str, **kwargs: object) -> None:
    """Called on Django's ``post_delete`` of a pairing: once the deletion commits, it is stopped as a revoke is."""
    rows = [(instance.pk, instance.channel_name)]
    # On commit: another process told before then would read the row again, still there.
    transaction.on_commit(lambda: _stopped(rows), using=using)
