"""
Call receipts (``byoa.models.CallLog``): one row per call that reached a
wallet, never its input or output. A connection queues them in memory; they
are written within ``BATCH_SECONDS`` with one ``bulk_create``, so a call costs
no database write of its own.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from datetime import UTC, datetime

from channels.db import database_sync_to_async

from byoa.models import CallLog, Pairing

__all__ = ["BATCH_SECONDS", "add", "flush"]

logger = logging.getLogger(__name__)

BATCH_SECONDS = 0.5

_queued: list[CallLog] = []
_writer: asyncio.Task[None] | None = None


def add(pairing_id: int, skill: str, model: str, ok: bool, duration_ms: int, receipt: object = None) -> None:
    """Queue the receipt of a call (only the receipt's cost and provider are kept, as text)."""
    global _writer
    loop = asyncio.get_running_loop()
    if _writer is not None and _writer.get_loop() is not loop:
        del _queued[:]  # queued on a loop that is gone (a test's): its database went with it
    shown = receipt if isinstance(receipt, dict) else {}
    _queued.append(
        CallLog(
            pairing_id=pairing_id,
            skill=skill[:64],
            model=model[:32],
            ok=ok,
            duration_ms=duration_ms,
            cost=str(shown.get("cost", ""))[:40],
            provider=str(shown.get("provider", ""))[:40],
            at=datetime.now(UTC),
        )
    )
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


def _write(batch: list[CallLog]) -> None:
    # A pairing deleted meanwhile takes its receipts with it.
    alive = set(Pairing.objects.filter(pk__in={row.pairing_id for row in batch}).values_list("pk", flat=True))
    CallLog.objects.bulk_create([row for row in batch if row.pairing_id in alive])
