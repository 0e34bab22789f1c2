"""byoa.processes: the liveness records of server processes, the sweep, and the beat through database errors."""

import logging
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError

from byoa import clock, pairings, processes
from byoa.models import Pairing, ServerProcess

pytestmark = pytest.mark.django_db(transaction=True)


def a_process(inbox, seconds_ago):
    now = clock.now()
    return ServerProcess.objects.create(
        inbox=inbox, pid=1, started_at=now, beat_at=now - timedelta(seconds=seconds_ago)
    )


def a_pairing(channel_name):
    now = clock.now()
    return Pairing.objects.create(
        token_digest=f"digest-{channel_name}",
        visitor="v",
        manifest_name="geo",
        channel_name=channel_name,
        created_at=now,
        last_seen=now,
    )


def test_the_sweep_forgets_stopped_processes_and_detaches_only_their_pairings():
    a_process("byoa.gone!1", seconds_ago=60)
    a_process("byoa.alive!2", seconds_ago=0)
    gone, alive, other = a_pairing("byoa.gone!1#1"), a_pairing("byoa.alive!2#1"), a_pairing("byoa.gone!10#1")
    assert processes.sweep() == 1
    assert list(ServerProcess.objects.values_list("inbox", flat=True)) == ["byoa.alive!2"]
    for row in (gone, alive, other):
        row.refresh_from_db()
    assert (gone.channel_name, alive.channel_name, other.channel_name) == (
        "",
        "byoa.alive!2#1",
        "byoa.gone!10#1",
    )


async def test_a_connection_of_a_process_that_stopped_beating_is_not_live():
    await database_sync_to_async(a_process)("byoa.stale!1", seconds_ago=60)
    await database_sync_to_async(a_process)("byoa.fresh!2", seconds_ago=0)
    stale = await database_sync_to_async(a_pairing)("byoa.stale!1#7")
    fresh = await database_sync_to_async(a_pairing)("byoa.fresh!2#7")
    unknown = await database_sync_to_async(a_pairing)("byoa.unknown!3#7")
    assert await pairings.live_channel(stale.pk) == ""
    assert await pairings.live_channel(unknown.pk) == ""
    assert await pairings.live_channel(fresh.pk) == "byoa.fresh!2#7"


def test_a_beat_after_its_record_was_swept_writes_it_again_and_reattaches_its_connections():
    mine = a_pairing("")  # detached by another process's sweep while this one could not beat
    taken = a_pairing("byoa.other!9#1")  # meanwhile served by another connection: left alone
    fresh = processes._beat("byoa.me!1", [(mine.pk, "byoa.me!1#1"), (taken.pk, "byoa.me!1#2")])
    assert "byoa.me!1" in fresh
    for row in (mine, taken):
        row.refresh_from_db()
    assert (mine.channel_name, taken.channel_name) == ("byoa.me!1#1", "byoa.other!9#1")


async def test_a_beat_survives_a_database_error_and_logs_only_its_class(monkeypatch, caplog):
    def failing(inbox, attached):
        raise OperationalError("the row 'visitor-secret' could not be written")

    monkeypatch.setattr(processes, "_beat", failing)
    with caplog.at_level(logging.WARNING, logger="byoa.processes"):
        await processes.ProcessRecords().beat_once("byoa.me!1", list)
    assert "OperationalError" in caplog.text
    assert "visitor-secret" not in caplog.text


async def test_a_suspected_process_counts_as_dead_until_it_beats_again():
    records = processes.ProcessRecords()
    record = await database_sync_to_async(a_process)("byoa.suspect!1", seconds_ago=0)
    assert await records.is_fresh("byoa.suspect!1")
    records.suspect("byoa.suspect!1")  # a call to it went unacknowledged
    assert not await records.is_fresh("byoa.suspect!1")
    assert not await records.is_fresh("byoa.suspect!1")  # no beat yet
    record.beat_at = record.beat_at + timedelta(seconds=1)
    await record.asave(update_fields=["beat_at"])
    assert await records.is_fresh("byoa.suspect!1")  # alive after all: the acknowledgement was lost
