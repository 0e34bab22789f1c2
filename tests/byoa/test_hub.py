"""byoa.hub: one object owns what a process runs for BYOA; it starts, and it stops with everything it started."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa.hub import Hub, HubLifespan, current_hub
from byoa.models import ServerProcess

pytestmark = pytest.mark.django_db(transaction=True)


def byoa_tasks():
    return [task for task in asyncio.all_tasks() if task.get_name().startswith("byoa-") and not task.done()]


def running_byoa_tasks():
    return {task.get_name() for task in byoa_tasks()}


async def test_each_test_gets_a_fresh_hub_that_is_not_running(hub):
    assert current_hub() is hub
    assert hub.connections.count() == 0 and not hub.transport.is_open
    assert running_byoa_tasks() == set()


async def test_a_started_hub_reads_its_inbox_beats_and_watches_and_cancel_stops_all_of_it(hub):
    await hub.start()
    assert {"byoa-inbox", "byoa-beat", "byoa-silence"} <= running_byoa_tasks()
    assert await database_sync_to_async(ServerProcess.objects.filter(inbox=hub.transport.inbox).exists)()
    started = byoa_tasks()
    hub.cancel()
    await asyncio.wait_for(asyncio.gather(*started, return_exceptions=True), 5)
    assert all(task.cancelled() for task in started)
    # cancel() touches no database: the record is left to the others' sweep.
    assert await database_sync_to_async(ServerProcess.objects.count)() == 1


async def test_aclose_removes_the_process_record_and_writes_queued_receipts():
    from byoa import clock
    from byoa.models import CallLog, Pairing

    hub = Hub()
    await hub.start()
    now = clock.now()
    pairing = await Pairing.objects.acreate(
        token_digest="f" * 64,
        visitor="v",
        manifest_name="geo",
        channel_name=f"{hub.transport.inbox}#1",
        created_at=now,
        last_seen=now,
    )
    hub.receipts.add(pairing.pk, "audio.transcribe", "", True, 3)
    await hub.aclose()
    assert running_byoa_tasks() == set()
    assert await database_sync_to_async(ServerProcess.objects.count)() == 0
    await pairing.arefresh_from_db()
    assert pairing.channel_name == ""  # away for every process at once
    assert await database_sync_to_async(CallLog.objects.count)() == 1


async def test_the_lifespan_starts_the_hub_and_closes_it_at_shutdown(hub):
    to_app, from_app = asyncio.Queue(), asyncio.Queue()
    lifespan = asyncio.ensure_future(HubLifespan()({"type": "lifespan"}, to_app.get, from_app.put))
    await to_app.put({"type": "lifespan.startup"})
    assert (await asyncio.wait_for(from_app.get(), 5))["type"] == "lifespan.startup.complete"
    assert hub.transport.is_open
    assert await database_sync_to_async(ServerProcess.objects.filter(inbox=hub.transport.inbox).exists)()
    await to_app.put({"type": "lifespan.shutdown"})
    assert (await asyncio.wait_for(from_app.get(), 5))["type"] == "lifespan.shutdown.complete"
    await asyncio.wait_for(lifespan, 5)
    assert not hub.transport.is_open
    assert await database_sync_to_async(ServerProcess.objects.count)() == 0


async def test_starting_twice_opens_one_inbox(hub):
    await asyncio.gather(hub.start(), hub.start())
    inbox = hub.transport.inbox
    await hub.start()
    assert hub.transport.inbox == inbox
    assert await database_sync_to_async(ServerProcess.objects.count)() == 1
