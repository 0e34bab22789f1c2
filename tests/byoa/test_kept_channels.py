"""A caller in another process reads a pairing's channel once and keeps it until the pairing's
connection moves (a hello, a close, a pause or revoke announce it to every process) or
BYOA["PAIRING_SECONDS"] pass: docs/explanation/delivery.md."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from byoa.delivery import events
from byoa.delivery.signing import sign_event
from byoa.models import Pairing
from byoa.pairing import pairings, tokens
from byoa.pairing.pairings import stop_pairings
from tests.byoa.conftest import get_pairing, hello, pair

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reads(monkeypatch, caller_elsewhere):
    """The pairing ids whose channel was read from the database, as a caller elsewhere reads them."""
    read = []
    real = pairings._live_channel

    def counted(pairing_id):
        read.append(pairing_id)
        return real(pairing_id)

    monkeypatch.setattr(pairings, "_live_channel", counted)
    return read


async def kept_and_read(wallet_socket, reads):
    """Pair a wallet; read its channel as a caller elsewhere would, twice; return (socket, welcome, pairing)."""
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await events.replies.channel()  # this process hears moves from now on
    assert await pairings.live_channel(pairing.pk) == pairing.channel_name
    assert await pairings.live_channel(pairing.pk) == pairing.channel_name
    assert reads == [pairing.pk]  # read once, then kept
    return communicator, welcome, pairing


@pytest.fixture
def heard_move(monkeypatch):
    """Wait, bounded, until the reply channel's reader has heard a (valid) move of the pairing."""
    heard: dict[int, asyncio.Event] = {}
    real = events.verified_event

    def spied(event, to):
        verified = real(event, to)
        if verified is not None and verified.get("type") == "byoa.moved":
            # The reader drops the kept channel right after this returns, before its next await.
            heard.setdefault(verified["pairing"], asyncio.Event()).set()
        return verified

    monkeypatch.setattr(events, "verified_event", spied)

    async def wait(pairing_id):
        await asyncio.wait_for(heard.setdefault(pairing_id, asyncio.Event()).wait(), 5)

    return wait


async def test_a_wallet_that_comes_back_on_a_new_connection_is_read_again_by_every_caller(
    wallet_socket, reads, heard_move
):
    _first, welcome, pairing = await kept_and_read(wallet_socket, reads)
    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    assert (await again.receive_json_from(timeout=5))["type"] == "welcome"
    await heard_move(pairing.pk)
    moved = await get_pairing(pk=pairing.pk)
    assert moved.channel_name not in ("", pairing.channel_name)
    assert await pairings.live_channel(pairing.pk) == moved.channel_name
    assert reads == [pairing.pk, pairing.pk]


async def test_a_connection_that_closes_is_read_again_and_found_gone(wallet_socket, reads, heard_move):
    communicator, _welcome, pairing = await kept_and_read(wallet_socket, reads)
    await communicator.disconnect()
    await heard_move(pairing.pk)
    assert await pairings.live_channel(pairing.pk) == ""


async def test_a_paused_pairing_is_read_again_by_every_caller(wallet_socket, reads, heard_move):
    _communicator, _welcome, pairing = await kept_and_read(wallet_socket, reads)
    await asyncio.to_thread(stop_pairings, Pairing.objects.filter(pk=pairing.pk), Pairing.Status.PAUSED)
    await heard_move(pairing.pk)
    assert await pairings.live_channel(pairing.pk) == ""


async def test_a_move_without_a_valid_mac_drops_nothing(wallet_socket, reads, heard_move):
    _communicator, _welcome, pairing = await kept_and_read(wallet_socket, reads)
    reply = await events.replies.channel()
    heard = events.replies.moves_heard()
    layer = get_channel_layer()
    await layer.send(reply, {"type": "byoa.moved", "pairing": pairing.pk})  # unsigned
    signed_for_another = sign_event({"type": "byoa.moved", "pairing": -1}, events.MOVES)
    await layer.send(reply, {**signed_for_another, "pairing": pairing.pk})  # its MAC no longer fits
    await layer.send(
        reply, sign_event({"type": "byoa.moved", "pairing": -2}, events.MOVES)
    )  # a real one, read last
    await heard_move(-2)  # events are read in order: the two before it were dropped
    assert events.replies.moves_heard() == heard + 1
    assert events.replies.known_channel(pairing.pk) == pairing.channel_name


async def test_with_pairing_seconds_zero_every_call_reads_the_channel(wallet_socket, reads, settings):
    settings.BYOA = {**settings.BYOA, "PAIRING_SECONDS": 0}
    _communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await events.replies.channel()
    for _ in range(2):
        assert await pairings.live_channel(pairing.pk) == pairing.channel_name
    assert reads == [pairing.pk, pairing.pk]
