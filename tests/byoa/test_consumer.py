"""The wallet consumer through WebsocketCommunicator: the handshake, hello and welcome, refusals, grants,
pairings paused or gone, pings; its bounds on frames are test_consumer_frames.py."""

import asyncio
import json
import logging

import pytest
from channels.db import database_sync_to_async
from django.db import IntegrityError, transaction

from byoa.calls import call_wallet
from byoa.delivery import events
from byoa.exceptions import CallRefused, WalletLeft, WalletOffline
from byoa.models import Pairing, SessionCode
from byoa.pairing import manifests, pairings, tokens
from byoa.pairing.pairings import stop_pairings
from byoa.wire.protocol import CloseCode
from tests.byoa.conftest import close_code, get_pairing, hello, new_code, pair

pytestmark = pytest.mark.django_db(transaction=True)


set_status = database_sync_to_async(lambda pk, status: Pairing.objects.filter(pk=pk).update(status=status))


@pytest.fixture
def public_host(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "game.example.org"]


@pytest.mark.parametrize(
    "headers",
    [
        [(b"origin", b"https://evil.example")],
        [(b"host", b"game.example.org"), (b"origin", b"https://evil.example")],
        [(b"host", b"game.example.org"), (b"origin", b"http://game.example.org")],  # the endpoint is wss://
        [(b"host", b"game.example.org"), (b"origin", b"https://game.example.org:8443")],
        [(b"host", b"game.example.org"), (b"origin", b"null")],
        [
            (b"host", b"game.example.org"),
            (b"origin", b"https://game.example.org"),
            (b"origin", b"https://evil.example"),
        ],
        [
            (b"host", b"rebound.example"),
            (b"origin", b"https://rebound.example"),
        ],  # not a host this site serves
    ],
)
async def test_a_page_of_another_site_is_refused_at_the_handshake(wallet_socket, public_host, headers):
    _communicator, connected = await wallet_socket(headers=headers)
    assert not connected


@pytest.mark.parametrize(
    "headers",
    [
        [(b"host", b"game.example.org")],
        [(b"host", b"game.example.org"), (b"origin", b"https://game.example.org")],
        [(b"host", b"game.example.org"), (b"origin", b"https://Game.Example.org:443")],
        [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")],  # ws:// on loopback
    ],
)
async def test_a_handshake_with_no_origin_or_the_endpoints_own_is_accepted_and_paired(
    wallet_socket, public_host, headers
):
    code, _wait = await new_code()
    communicator, connected = await wallet_socket(headers=headers)
    assert connected
    await communicator.send_json_to(hello(session=code))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "welcome"


async def test_with_a_configured_endpoint_its_origin_is_the_one_accepted(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "ENDPOINT": "wss://ws.example.org/wallet"}
    _communicator, connected = await wallet_socket(
        headers=[(b"host", b"ws.example.org"), (b"origin", b"https://ws.example.org")]
    )
    assert connected
    _communicator, connected = await wallet_socket(
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")]
    )
    assert not connected


async def test_a_hello_with_a_fresh_code_is_welcomed_with_a_token_and_the_links_manifest(wallet_socket):
    _communicator, welcome = await pair(wallet_socket)
    assert welcome["manifest"] == manifests.get_manifest("geo").encoded
    assert len(welcome["pairing"]) * 6 >= 192
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    assert pairing.manifest_name == "geo" and pairing.visitor == "visitor-a" and pairing.is_live
    assert pairing.grant["skills"] == ["audio.transcribe"]
    assert welcome["pairing"] not in json.dumps([pairing.token_digest, pairing.grant, pairing.wallet])


async def test_the_welcome_echoes_the_manifest_text_the_code_was_issued_with(wallet_socket):
    code, _wait = await new_code()
    await database_sync_to_async(SessionCode.objects.update)(manifest="eyJvbGQiOnRydWV9")
    communicator, _ = await wallet_socket()
    await communicator.send_json_to(hello(session=code))
    assert (await communicator.receive_json_from(timeout=5))["manifest"] == "eyJvbGQiOnRydWV9"


@pytest.mark.parametrize("session", ["unknown-code-unknown-code", "", 42])
async def test_a_hello_with_a_bad_code_gets_bad_session_and_close_4008(wallet_socket, session):
    communicator, _ = await wallet_socket()
    await communicator.send_json_to(hello(session=session))
    assert await communicator.receive_json_from(timeout=5) == {"type": "error", "code": "bad-session"}
    assert await close_code(communicator) == CloseCode.POLICY == 4008


async def test_a_used_code_gets_bad_session(wallet_socket):
    code, _wait = await new_code()
    first, _ = await wallet_socket()
    await first.send_json_to(hello(session=code))
    assert (await first.receive_json_from(timeout=5))["type"] == "welcome"
    second, _ = await wallet_socket()
    await second.send_json_to(hello(session=code))
    assert (await second.receive_json_from(timeout=5))["code"] == "bad-session"


GEO_LIMITS = {"maxClipSeconds": 15, "maxCallsPerMinute": 600, "maxParallelCalls": 4, "maxCallSeconds": 20}


@pytest.mark.parametrize(
    "site, grant, stored, unreadable",
    [
        ("geo", None, {"skills": ["audio.transcribe"], "expiresAt": None, "limits": GEO_LIMITS}, "grant"),
        (
            "geo",
            {"skills": "audio.transcribe", "expiresAt": "2099-01-01T00:00:00Z"},
            {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z", "limits": {}},
            "skills",
        ),
        (
            "geo",
            {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00"},
            {"skills": ["audio.transcribe"], "expiresAt": None, "limits": {}},
            "expiresAt",
        ),
        (
            "geo",
            {"skills": ["audio.transcribe"], "expiresAt": "soon", "limits": {"maxParallelCalls": "2"}},
            {"skills": ["audio.transcribe"], "expiresAt": None, "limits": {"maxParallelCalls": 4}},
            "expiresAt, limits.maxParallelCalls",
        ),
        (
            "geo",
            {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z", "limits": [2]},
            {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z", "limits": GEO_LIMITS},
            "limits",
        ),
        (
            "quiz",
            {
                "skills": ["text.generate"],
                "expiresAt": "2099-01-01T00:00:00Z",
                "models": [{"name": "Big"}, {"name": "Small"}],
            },
            {
                "skills": ["text.generate"],
                "expiresAt": "2099-01-01T00:00:00Z",
                "limits": {},
                "models": ["m1", "m2"],
            },
            "models",
        ),
    ],
)
async def test_a_hello_with_a_fresh_code_and_a_partly_unreadable_grant_is_welcomed_and_warned_about(
    wallet_socket, caplog, site, grant, stored, unreadable
):
    code, _wait = await new_code(site=site)
    communicator, _ = await wallet_socket()
    frame = hello(session=code)
    if grant is None:
        del frame["grant"]
    else:
        frame["grant"] = grant
    with caplog.at_level(logging.WARNING, logger="byoa"):
        await communicator.send_json_to(frame)
        welcome = await communicator.receive_json_from(timeout=5)
    assert welcome["type"] == "welcome"
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    assert pairing.grant == stored
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"BYOA pairing {pairing.pk}: the grant of wallet 'test wallet' '0.1' has unreadable {unreadable}; "
        "the readable part is kept, the rest is the manifest's"
    ]
    assert code not in caplog.text and welcome["pairing"] not in caplog.text


async def test_a_pairing_whose_grant_was_missing_gets_the_calls_its_manifest_asks_for(wallet_socket):
    code, _wait = await new_code()
    communicator, _ = await wallet_socket()
    frame = hello(session=code)
    del frame["grant"]
    await communicator.send_json_to(frame)
    welcome = await communicator.receive_json_from(timeout=5)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"x": 1}, timeout=5))
    call = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}}
    )
    assert await caller == {"text": "Peru"}
    with pytest.raises(CallRefused):  # not in the manifest
        await call_wallet(pairing, "text.generate", {"x": 1}, timeout=5)


async def test_a_grant_frame_with_an_unreadable_field_keeps_the_grant_in_force_for_it(wallet_socket):
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 2})
    before = (await get_pairing(token_digest=tokens.digest(welcome["pairing"]))).grant
    changed = {
        "skills": ["audio.transcribe", "text.generate"],
        "expiresAt": "later",
        "limits": {"maxParallelCalls": "1"},
    }
    await communicator.send_json_to({"type": "grant", "grant": changed})
    await communicator.send_json_to({"type": "bye"})
    await close_code(communicator)
    after = (await get_pairing(token_digest=tokens.digest(welcome["pairing"]))).grant
    assert after == {**before, "skills": ["audio.transcribe", "text.generate"]}
    assert after["expiresAt"] is not None and after["limits"] == {"maxParallelCalls": 2}


async def test_a_known_pairing_comes_back_with_session_null_and_gets_the_current_manifest(wallet_socket):
    first, welcome = await pair(wallet_socket)
    await first.send_json_to({"type": "bye"})
    assert await close_code(first) == 1000
    await first.disconnect()
    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    back = await again.receive_json_from(timeout=5)
    assert back == {
        "type": "welcome",
        "pairing": welcome["pairing"],
        "manifest": manifests.get_manifest("geo").encoded,
    }


@pytest.mark.parametrize("status", [Pairing.Status.PAUSED, Pairing.Status.REVOKED])
async def test_a_paused_or_revoked_pairing_is_refused(wallet_socket, status):
    first, welcome = await pair(wallet_socket)
    await first.disconnect()
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await set_status(pairing.pk, status)
    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    assert (await again.receive_json_from(timeout=5))["code"] == "bad-session"
    assert await close_code(again) == 4008


async def test_an_unknown_pairing_token_is_refused(wallet_socket):
    communicator, _ = await wallet_socket()
    await communicator.send_json_to(hello(pairing=tokens.new_pairing_token()))
    assert (await communicator.receive_json_from(timeout=5))["code"] == "bad-session"


async def test_a_newer_connection_of_a_pairing_sends_the_older_one_bye_and_closes_it(wallet_socket):
    older, welcome = await pair(wallet_socket)
    newer, _ = await wallet_socket()
    await newer.send_json_to(hello(pairing=welcome["pairing"]))
    assert (await newer.receive_json_from(timeout=5))["type"] == "welcome"
    assert await older.receive_json_from(timeout=5) == {"type": "bye"}
    assert await close_code(older) == 1000
    await older.disconnect()  # the older one's goodbye must not mark the newer one away
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    assert pairing.channel_name and pairing.is_live


async def test_bye_from_the_wallet_closes_with_1000_and_marks_it_away(wallet_socket):
    communicator, welcome = await pair(wallet_socket)
    await communicator.send_json_to({"type": "bye"})
    assert await close_code(communicator) == 1000
    await communicator.disconnect()
    assert not (await get_pairing(token_digest=tokens.digest(welcome["pairing"]))).is_live


async def test_a_grant_frame_changes_the_recorded_grant(wallet_socket):
    communicator, welcome = await pair(wallet_socket)
    new_grant = {"skills": [], "expiresAt": "2099-01-01T00:00:00Z", "limits": {"maxParallelCalls": 1}}
    await communicator.send_json_to({"type": "grant", "grant": new_grant})
    await communicator.send_json_to({"type": "bye"})  # handled after the grant: frames are sequential
    await close_code(communicator)
    assert (await get_pairing(token_digest=tokens.digest(welcome["pairing"]))).grant == new_grant


async def test_deleting_a_pairing_closes_its_live_connection_with_bye_once_committed(wallet_socket):
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))

    def delete_in_a_transaction():
        with transaction.atomic():
            Pairing.objects.filter(pk=pairing.pk).delete()
            assert pairing.pk in events.wallet_connections  # not before the deletion commits

    await database_sync_to_async(delete_in_a_transaction)()
    assert pairing.pk not in events.wallet_connections  # this process's calls to it stop at once
    assert await communicator.receive_json_from(timeout=5) == {"type": "bye"}
    assert await close_code(communicator) == 1000
    with pytest.raises(WalletOffline):
        await call_wallet(pairing.pk, "audio.transcribe", {"audio": {}}, timeout=5)


async def test_a_cookie_is_no_substitute_for_a_hello(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "HELLO_SECONDS": 0.1}
    communicator, connected = await wallet_socket(headers=[(b"cookie", b"sessionid=whatever")])
    assert connected
    assert await close_code(communicator) == 4008


async def test_a_database_error_during_hello_gets_bad_session_and_close_4008_and_logs_no_code(
    wallet_socket, monkeypatch, caplog
):
    code, _wait = await new_code()

    def failing_consume(value):
        raise IntegrityError(f"CHECK constraint failed for {value}")

    monkeypatch.setattr("byoa.pairing.codes.consume", failing_consume)
    communicator, _ = await wallet_socket()
    await communicator.send_json_to(hello(session=code))
    assert await communicator.receive_json_from(timeout=5) == {"type": "error", "code": "bad-session"}
    assert await close_code(communicator) == 4008
    assert "IntegrityError" in caplog.text and code not in caplog.text


async def test_a_hello_stores_only_the_grant_the_server_understands(wallet_socket):
    code, _wait = await new_code()
    communicator, _ = await wallet_socket()
    frame = hello(session=code, limits={"maxParallelCalls": 2, "unknown": "x" * 1000}, padding="x" * 10_000)
    await communicator.send_json_to(frame)
    welcome = await communicator.receive_json_from(timeout=5)
    stored = (await get_pairing(token_digest=tokens.digest(welcome["pairing"]))).grant
    assert stored == {
        "skills": ["audio.transcribe"],
        "expiresAt": frame["grant"]["expiresAt"],
        "limits": {"maxParallelCalls": 2},
    }


async def test_a_grant_frame_that_changes_nothing_writes_nothing(wallet_socket, monkeypatch):
    communicator, _welcome = await pair(wallet_socket)
    writes = []
    record = pairings.record_grant

    async def counting(pairing_id, grant):
        writes.append(grant)
        await record(pairing_id, grant)

    monkeypatch.setattr(pairings, "record_grant", counting)
    changed = {
        "skills": ["audio.transcribe"],
        "expiresAt": "2099-01-01T00:00:00Z",
        "limits": {"maxParallelCalls": 1},
    }
    for _ in range(3):
        await communicator.send_json_to({"type": "grant", "grant": {**changed, "padding": "ignored"}})
    await communicator.send_json_to({"type": "bye"})  # handled after the grants: frames are sequential
    await close_code(communicator)
    assert len(writes) == 1


async def test_pausing_writes_the_status_before_it_sends_the_close(wallet_socket, monkeypatch):
    _communicator, welcome = await pair(wallet_socket)
    queryset = Pairing.objects.filter(token_digest=tokens.digest(welcome["pairing"]))
    seen = []

    async def record(channel, event):
        seen.append((event["type"], await queryset.values_list("status", flat=True).aget()))
        return True

    monkeypatch.setattr(pairings, "send_event", record)
    assert await database_sync_to_async(stop_pairings)(queryset, Pairing.Status.PAUSED) == (1, 1)
    assert seen == [("byoa.close", Pairing.Status.PAUSED)]


async def test_a_paused_pairing_has_no_live_channel_even_when_its_close_is_lost(wallet_socket, monkeypatch):
    _communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    assert await pairings.live_channel(pairing.pk)

    async def lose(channel, event):
        return True  # the channel layer delivers at most once

    monkeypatch.setattr(pairings, "send_event", lose)
    await database_sync_to_async(stop_pairings)(Pairing.objects.filter(pk=pairing.pk), Pairing.Status.PAUSED)
    assert await pairings.live_channel(pairing.pk) == ""


@pytest.mark.parametrize("status", [Pairing.Status.PAUSED, Pairing.Status.REVOKED])
async def test_a_ping_closes_a_connection_whose_pairing_is_no_longer_active(
    wallet_socket, monkeypatch, status
):
    monkeypatch.setattr("byoa.consumers.TOUCH_SECONDS", -1)  # every ping re-reads the status
    communicator, welcome = await pair(wallet_socket)
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_nothing(timeout=0.2)  # still active: nothing happens
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await set_status(pairing.pk, status)  # as if the admin's close had been lost
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "bye"}
    assert await close_code(communicator) == 1000
    assert await pairings.live_channel(pairing.pk) == ""


async def test_a_connection_of_another_process_not_seen_for_long_counts_as_gone(
    wallet_socket, monkeypatch, caller_elsewhere
):
    from datetime import timedelta

    from byoa import clock

    _communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    assert await pairings.live_channel(pairing.pk) == pairing.channel_name
    later = clock.now() + timedelta(seconds=181)
    monkeypatch.setattr("byoa.clock.now", lambda: later)  # no hello or ping for over LIVE_SECONDS
    assert await pairings.live_channel(pairing.pk) == ""


async def test_a_call_sent_to_a_connection_gone_since_its_channel_was_read_ends_at_its_deadline_with_process_gone(
    wallet_socket, caller_elsewhere
):
    from byoa import clock
    from byoa.exceptions import WalletProcessGone

    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await communicator.disconnect()
    # As another process may still see it: the channel of a connection that is gone.
    await database_sync_to_async(Pairing.objects.filter(pk=pairing.pk).update)(
        channel_name=pairing.channel_name, last_seen=clock.now()
    )
    clip = {"audio": {"mime": "audio/wav", "base64": "UklGRg=="}}
    with pytest.raises(WalletProcessGone):  # nobody reads the channel: nothing comes back by the deadline
        await asyncio.wait_for(call_wallet(pairing.pk, "audio.transcribe", clip, timeout=0.5), 5)
    with pytest.raises(WalletProcessGone):  # and so does the next, until the wallet says hello again
        await asyncio.wait_for(call_wallet(pairing.pk, "audio.transcribe", clip, timeout=0.5), 5)


async def test_a_wallet_silent_past_one_and_a_half_ping_intervals_is_closed_and_its_calls_raise_wallet_left(
    wallet_socket, settings
):
    settings.BYOA = {**settings.BYOA, "PING_SECONDS": 0.2}
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"
    # The wallet says nothing more: no result, no ping.
    with pytest.raises(WalletLeft):
        await asyncio.wait_for(caller, 10)
    assert await close_code(communicator) == CloseCode.POLICY
    assert (await get_pairing(pk=pairing.pk)).channel_name == ""


async def test_a_wallet_that_pings_is_not_taken_for_silent(wallet_socket, settings):
    # A silence bound of 0.75 s, five times the pings' 0.1 s gaps, so that a loaded machine's
    # slow turn of the loop is not taken for silence; pings for four bounds.
    settings.BYOA = {**settings.BYOA, "PING_SECONDS": 0.5}
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    # Each a wait for the next ping to be due, not a sleep to get by.
    for _ in range(30):
        await communicator.send_json_to({"type": "ping"})
        assert await communicator.receive_nothing(timeout=0.1)
    assert events.wallet_connections.get(pairing.pk) is not None
    assert (await get_pairing(pk=pairing.pk)).channel_name
