"""Call receipts: queued in memory, written in one statement per batch, never content."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from byoa import clock
from byoa.delivery import receipts
from byoa.models import CallLog, Pairing

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def new_pairing(token):
    now = clock.now()
    return Pairing.objects.create(
        token_digest=token, visitor="v", manifest_name="geo", created_at=now, last_seen=now
    ).pk


async def test_a_batch_of_receipts_is_written_with_one_statement():
    pairing = await new_pairing("a" * 64)
    for ok in (True, False, True):
        receipts.add(pairing, "audio.transcribe", "", ok, 12, {"cost": "0.001 USD", "provider": "local"})

    def write():
        with CaptureQueriesContext(connection) as queries:
            receipts._write(receipts._queued[:])
        receipts._queued.clear()
        return [query["sql"] for query in queries if "INSERT" in query["sql"]]

    inserts = await database_sync_to_async(write)()
    assert len(inserts) == 1
    rows = await database_sync_to_async(
        lambda: list(CallLog.objects.order_by("pk").values_list("ok", "cost", "provider"))
    )()
    assert rows == [(True, "0.001 USD", "local"), (False, "0.001 USD", "local"), (True, "0.001 USD", "local")]


async def test_a_receipt_keeps_the_time_its_batch_was_written():
    pairing = await new_pairing("b" * 64)
    before = clock.now()
    receipts.add(pairing, "text.generate", "m1", True, 5)
    await receipts.flush()
    log = await database_sync_to_async(CallLog.objects.get)()
    assert before - timedelta(seconds=1) <= log.at <= clock.now() + timedelta(seconds=1)
    assert (log.skill, log.model, log.cost, log.provider) == ("text.generate", "m1", "", "")


async def test_the_receipts_of_a_batch_share_its_time_and_list_the_last_call_first(monkeypatch):
    pairing = await new_pairing("f" * 64)
    written = clock.now() - timedelta(hours=1)
    monkeypatch.setattr("byoa.clock.now", lambda: written)
    for skill in ("first", "second", "third"):
        receipts.add(pairing, skill, "", True, 1)
    await receipts.flush()
    logs = await database_sync_to_async(lambda: list(CallLog.objects.values_list("skill", "at")))()
    assert logs == [("third", written), ("second", written), ("first", written)]


async def test_receipts_of_a_pairing_deleted_meanwhile_are_dropped_and_the_others_kept():
    kept, deleted = await new_pairing("c" * 64), await new_pairing("d" * 64)
    receipts.add(kept, "audio.transcribe", "", True, 1)
    receipts.add(deleted, "audio.transcribe", "", True, 1)
    await database_sync_to_async(lambda: Pairing.objects.filter(pk=deleted).delete())()
    await receipts.flush()
    assert await database_sync_to_async(
        lambda: list(CallLog.objects.values_list("pairing_id", flat=True))
    )() == [kept]


async def test_a_receipt_holds_no_more_than_its_columns_allow():
    pairing = await new_pairing("e" * 64)
    receipts.add(
        pairing, "s" * 100, "m" * 100, True, 1, {"cost": "c" * 100, "provider": ["not", "a", "string"]}
    )
    await receipts.flush()
    log = await database_sync_to_async(CallLog.objects.get)()
    assert (len(log.skill), len(log.model), len(log.cost)) == (64, 32, 40)
    assert log.provider == str(["not", "a", "string"])[:40]


class ReceiptsRouter:
    """A site's database router: it says where CallLog rows go (here, the one database there is)."""

    asked: list[type] = []

    def db_for_write(self, model, **hints):
        self.asked.append(model)
        return "default"


async def test_receipts_go_to_the_database_the_sites_routers_name(settings):
    settings.DATABASE_ROUTERS = [f"{__name__}.ReceiptsRouter"]
    ReceiptsRouter.asked.clear()
    pairing = await new_pairing("g" * 64)
    receipts.add(pairing, "text.generate", "", True, 1)
    await receipts.flush()
    assert CallLog in ReceiptsRouter.asked
    assert await database_sync_to_async(CallLog.objects.count)() == 1
