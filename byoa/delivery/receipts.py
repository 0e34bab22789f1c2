"""
Call receipts (``byoa.models.CallLog``): one row per call that reached a
wallet, never its input or output. A connection queues them in memory, a
tuple each; they are written within ``BATCH_SECONDS`` in one ``executemany``,
so a call costs no database write (and no model instance) of its own.
A receipt's time is its batch's: when the batch was written.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

from channels.db import database_sync_to_async
from django.db import connections, router, transaction
from django.db.models import DateTimeField

from byoa import clock
from byoa.models import CallLog, Pairing

__all__ = ["BATCH_SECONDS", "add", "flush"]

logger = logging.getLogger(__name__)

BATCH_SECONDS = 0.5

#: (pairing id, skill, model, ok, duration in ms, cost, provider)
Receipt = tuple[int, str, str, bool, int, str, str]
_COLUMNS = ("pairing", "skill", "model", "ok", "duration_ms", "cost", "provider", "at")

_queued: list[Receipt] = []
_writer: asyncio.Task[None] | None = None


def add(pairing_id: int, skill: str, model: str, ok: bool, duration_ms: int, receipt: object = None) -> None:
    """Queue the receipt of a call (only the receipt's cost and provider are kept, as text)."""
    global _writer
    loop = asyncio.get_running_loop()
    if _writer is not None and _writer.get_loop() is not loop:
        del _queued[:]  # queued on a loop that is gone (a test's): its database went with it
    shown = receipt if isinstance(receipt, dict) else {}
    cost, provider = str(shown.get("cost", ""))[:40], str(shown.get("provider", ""))[:40]
    _queued.append((pairing_id, skill[:64], model[:32], ok, duration_ms, cost, provider))
    if _writer is None or _writer.done():
        # A context of its own: the call that queues the first receipt may be a request's, whose
        # database thread is gone by the time the batch is written.
        _writer = loop.create_task(_write_later(), context=contextvars.Context())


async def _write_later() -> None:
    await asyncio.sleep(BATCH_SECONDS)
    try:
        await flush()
    except Exception:  # a receipt is not worth a crashed task; the log says so, without content
        logger.exception("BYOA could not write call receipts")


async def flush() -> None:
    """Write the queued receipts now."""
    batch = _queued[:]
    del _queued[:]
    if batch:
        await database_sync_to_async(_write)(batch)


def _write(batch: list[Receipt]) -> None:
    using = router.db_for_write(CallLog)
    database = connections[using]
    # A pairing deleted meanwhile takes its receipts with it.
    pairing_ids = {row[0] for row in batch}
    alive = set(Pairing.objects.using(using).filter(pk__in=pairing_ids).values_list("pk", flat=True))
    at = CallLog._meta.get_field("at")
    assert isinstance(at, DateTimeField)
    # One time for the batch, adapted once: adapting a datetime per row cost more than its insert,
    # and a receipt's time needs no finer grain than its batch's (docs: delivery).
    written = at.get_db_prep_value(clock.now(), database)
    rows = [(*row, written) for row in batch if row[0] in alive]
    if rows:
        # executemany, not bulk_create: a model instance per receipt cost more than the call itself.
        concrete = {field.name: field for field in CallLog._meta.concrete_fields}
        fields = [concrete[name] for name in _COLUMNS]
        quote = database.ops.quote_name
        columns = ", ".join(quote(field.column or field.attname) for field in fields)
        table = quote(CallLog._meta.db_table)
        with transaction.atomic(using=using), database.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})", rows
            )
