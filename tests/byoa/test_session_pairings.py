"""
The pairing a browser session reaches, kept by this process for ``BYOA["PAIRING_SECONDS"]``
(byoa.pairing.session_pairings) through ``aget_pairing``: found once, it is answered again without the
session's load or the pairing's query; a session without one is never kept; a newer or resumed
pairing opened here, a pause, a revoke or a deletion made here, or a logout here, are seen at once.

"Without reading" is shown by changing the row behind the cache's back with ``update()`` (which
tells nobody): the cache still answers what it read.
"""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import alogout
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

import byoa
from byoa import clock
from byoa.models import Pairing
from byoa.pairing import pairings, session_pairings, visitor_ids
from tests.byoa.conftest import a_pairing, hello, new_code

pytestmark = pytest.mark.django_db(transaction=True)

SECONDS = 10.0


@pytest.fixture(autouse=True)
def kept_seconds(settings, monkeypatch):
    settings.BYOA = {**settings.BYOA, "PAIRING_SECONDS": SECONDS}
    monkeypatch.setattr(session_pairings, "_found", {})  # this test's entries only


async def a_saved_session(visitor):
    session = SessionStore()
    await session.aset(visitor_ids.SESSION_KEY, visitor)
    await session.asave()
    return session.session_key


def a_request(session_key):
    """A request carrying this session's cookie, as SessionMiddleware makes it: nothing loaded yet."""
    request = RequestFactory().get("/")
    request.session = SessionStore(session_key)
    return request


@database_sync_to_async
def change_behind_its_back(pairing, **fields):
    Pairing.objects.filter(pk=pairing.pk).update(**fields)


async def test_a_sessions_pairing_found_once_is_answered_again_without_reading_session_or_database():
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    assert (await byoa.aget_pairing(a_request(key), "geo")).pk == paired.pk
    await change_behind_its_back(paired, visitor="someone-else")
    request = a_request(key)
    assert (await byoa.aget_pairing(request, "geo")).pk == paired.pk
    assert not request.session.accessed  # the session was not even loaded


async def test_a_kept_pairing_is_read_again_once_its_seconds_are_past(monkeypatch):
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    await byoa.aget_pairing(a_request(key), "geo")
    await change_behind_its_back(paired, visitor="someone-else")
    later = clock.now() + timedelta(seconds=SECONDS)
    monkeypatch.setattr("byoa.clock.now", lambda: later)
    assert await byoa.aget_pairing(a_request(key), "geo") is None


async def test_a_session_without_a_pairing_is_not_kept_and_finds_one_made_after():
    key = await a_saved_session("visitor-a")
    assert await byoa.aget_pairing(a_request(key), "geo") is None
    paired = await a_pairing("visitor-a")
    assert (await byoa.aget_pairing(a_request(key), "geo")).pk == paired.pk


async def test_each_manifest_and_each_session_is_its_own_entry():
    mine, theirs = await a_saved_session("visitor-a"), await a_saved_session("visitor-b")
    geo, quiz = await a_pairing("visitor-a"), await a_pairing("visitor-a", "quiz")
    assert (await byoa.aget_pairing(a_request(mine), "geo")).pk == geo.pk
    assert (await byoa.aget_pairing(a_request(mine), "quiz")).pk == quiz.pk
    assert await byoa.aget_pairing(a_request(theirs), "geo") is None


async def test_a_newer_pairing_opened_in_this_process_is_found_at_once():
    key = await a_saved_session("visitor-a")
    older = await a_pairing("visitor-a", minutes_ago=5)
    assert (await byoa.aget_pairing(a_request(key), "geo")).pk == older.pk
    code, _wait = await new_code(visitor="visitor-a")
    opened = await pairings.open_from_hello(hello(session=code), "byoa.here!1#1")
    assert opened is not None
    assert (await byoa.aget_pairing(a_request(key), "geo")).pk == opened.pairing_id


@pytest.mark.parametrize("status", [Pairing.Status.PAUSED, Pairing.Status.REVOKED])
async def test_a_pause_or_revoke_made_in_this_process_is_seen_at_once(status):
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    await byoa.aget_pairing(a_request(key), "geo")
    await database_sync_to_async(pairings.stop_pairings)(Pairing.objects.filter(pk=paired.pk), status)
    assert await byoa.aget_pairing(a_request(key), "geo") is None


async def test_a_deletion_made_in_this_process_is_seen_at_once():
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    await byoa.aget_pairing(a_request(key), "geo")
    await paired.adelete()
    assert await byoa.aget_pairing(a_request(key), "geo") is None


async def test_a_logout_in_this_process_forgets_the_sessions_pairing_at_once():
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    request = a_request(key)
    assert (await byoa.aget_pairing(request, "geo")).pk == paired.pk
    request.user = AnonymousUser()
    await alogout(request)  # Django's: user_logged_out, then the session flushed
    assert await byoa.aget_pairing(a_request(key), "geo") is None


async def test_a_view_that_changes_its_pairing_changes_no_other_requests():
    key = await a_saved_session("visitor-a")
    await a_pairing("visitor-a")
    (await byoa.aget_pairing(a_request(key), "geo")).manifest_name = "changed"
    assert (await byoa.aget_pairing(a_request(key), "geo")).manifest_name == "geo"


def test_past_its_most_entries_the_expired_ones_go_then_all(monkeypatch):
    monkeypatch.setattr(session_pairings, "MOST", 2)
    pairing = Pairing(pk=1, visitor="v", manifest_name="geo")
    session_pairings.put("a", "geo", pairing)
    session_pairings.put("b", "geo", pairing)
    session_pairings.put("c", "geo", pairing)
    assert len(session_pairings._found) == 1 and session_pairings.get("c", "geo").pk == 1


async def test_with_no_seconds_each_request_reads_its_pairing_again(settings):
    settings.BYOA = {**settings.BYOA, "PAIRING_SECONDS": 0}
    key = await a_saved_session("visitor-a")
    paired = await a_pairing("visitor-a")
    assert (await byoa.aget_pairing(a_request(key), "geo")).pk == paired.pk
    await change_behind_its_back(paired, visitor="someone-else")
    assert await byoa.aget_pairing(a_request(key), "geo") is None
    assert session_pairings._found == {}
