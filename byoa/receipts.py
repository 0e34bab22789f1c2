"""
Call receipts (``byoa.models.CallLog``): one row per call that reached a
wallet, never its input or output.

A connection queues a receipt in its hub's ``ReceiptWriter`` (``byoa.hub``):
in memory, a tuple, no model instance. The queue is written within
``BATCH_SECONDS`` in one transaction with one statement (``executemany``): a
call costs no thread hop and no INSERT of its own.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from channels.db import database_sync_to_async
from django.db import IntegrityError, connection, transaction

from byoa.models import CallLog, Pairing

logger = logging.getLogger(__name__)

__all__ = ["BATCH_SECONDS", "ReceiptWriter"]

BATCH_SECONDS = 0.5
_COLUMNS = ("pairing", "skill", "model", "ok", "duration_ms", "cost", "provider", "at")

#: (pairing id, skill, model, ok, duration in ms, the wallet's receipt, POSIX time)
Receipt = tuple[int, str, str, bool, int, object, float]
#: The database's value of ``CallLog.at``: text for SQLite, a datetime for the others.
AtValue = str | datetime
#: The values of one CallLog row, in _COLUMNS' order.
Row = tuple[int, str, str, bool, int, str, str, AtValue]


class ReceiptWriter:
    """The receipts a process has queued, and the task that writes them."""

    def __init__(self) -> None:
        self._queued: list[Receipt] = []
        self._writer: asyncio.Future[None] | None = None

    def add(
        self, pairing_id: int, skill: str, model: str, ok: bool, duration_ms: int, receipt: object = None
    ) -> None:
        """Queue the receipt of a call (never its content); it is written within BATCH_SECONDS."""
        self._queued.append((pairing_id, skill, model, ok, duration_ms, receipt, time.time()))
        if self._writer is None or self._writer.done():
            # In a fresh context, as the hub's own tasks (byoa.hub): the call that queues the first
            # receipt may be a request's, whose executor is gone by the time the batch is written.
            self._writer = asyncio.get_running_loop().create_task(
                self._write_later(), context=contextvars.Context()
            )

    async def _write_later(self) -> None:
        await asyncio.sleep(BATCH_SECONDS)
        try:
            await self.flush()
        except Exception:  # a receipt is not worth a crashed task; say so without content
            logger.exception("BYOA could not write call receipts")

    async def flush(self) -> None:
        """Write the queued receipts now."""
        batch, self._queued = self._queued, []
        if batch:
            await database_sync_to_async(_write)(batch)

    def discard(self) -> None:
        """Forget queued receipts and the pending write (for tests that end before it)."""
        if self._writer is not None:
            self._writer.cancel()
        self._queued = []

    async def aclose(self) -> None:
        """Write what is queued now, and stop the pending write."""
        if self._writer is not None:
            self._writer.cancel()
        try:
            await self.flush()
        except Exception:
            logger.exception("BYOA could not write call receipts")


def _row(
    pairing_id: int,
    skill: str,
    model: str,
    ok: bool,
    duration_ms: int,
    receipt: object,
    at: float,
    at_value: Callable[[float], AtValue],
) -> Row:
    # The wallet's receipt is its JSON: only its cost and provider are kept, as text.
    shown = receipt if isinstance(receipt, dict) else {}
    return (
        pairing_id,
        skill[:64],
        model[:32],
        ok,
        duration_ms,
        str(shown.get("cost", ""))[:40],
        str(shown.get("provider", ""))[:40],
        at_value(at),
    )


def _at_value() -> Callable[[float], AtValue]:
    """Return a function from a POSIX time to the database's value of ``CallLog.at``."""
    field = CallLog._meta.get_field("at")
    if connection.vendor == "sqlite" and connection.timezone_name == "UTC":
        # What Django's SQLite adaptation makes of an aware datetime (naive UTC
        # text, as str() writes it), without its per-value time zone work.
        return lambda at: str(datetime.fromtimestamp(at, UTC).replace(tzinfo=None))
    return lambda at: field.get_db_prep_value(datetime.fromtimestamp(at, UTC), connection)


def _insert_sql() -> str:
    concrete = {field.name: field for field in CallLog._meta.concrete_fields}
    fields = [concrete[name] for name in _COLUMNS]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.get_attname_column()[1] or field.attname) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {connection.ops.quote_name(CallLog._meta.db_table)} ({columns}) VALUES ({marks})"


def _write(batch: list[Receipt]) -> None:
    at_value = _at_value()
    rows = [_row(*receipt, at_value) for receipt in batch]
    try:
        _insert(rows)
    except IntegrityError:
        # A pairing was deleted meanwhile: its receipts go with it, the others stay.
        alive = set(Pairing.objects.filter(pk__in={row[0] for row in rows}).values_list("pk", flat=True))
        _insert([row for row in rows if row[0] in alive])


def _insert(rows: Sequence[Row]) -> None:
    if rows:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(_insert_sql(), rows)
