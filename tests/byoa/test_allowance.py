"""What a paired wallet may send is its pairing's allowance, kept across reconnects (issue 40, item 1)."""

import json

import pytest

from byoa.delivery import allowance
from byoa.delivery.allowance import Allowances
from byoa.pairing import pairings
from byoa.wire import protocol
from tests.byoa.conftest import close_code, hello, pair

pytestmark = pytest.mark.django_db(transaction=True)

FRAME_LIMIT = 10_000


async def test_a_wallet_that_spent_its_allowance_and_comes_back_is_closed_on_its_next_large_frame_unparsed(
    wallet_socket, settings, monkeypatch
):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": FRAME_LIMIT}
    communicator, welcome = await pair(wallet_socket)
    frame = json.dumps({"type": "ping", "pad": "x" * (FRAME_LIMIT - 100)})
    for _ in range(allowance.BURST_FRAMES):  # the whole burst, within the allowance
        await communicator.send_to(text_data=frame)
    await communicator.send_json_to({"type": "ping"})  # read after the burst, so the burst was counted
    assert await communicator.receive_nothing(timeout=0.2)
    await communicator.disconnect()

    parsed = []
    real_parse = protocol.parse
    monkeypatch.setattr(protocol, "parse", lambda text: parsed.append(len(text)) or real_parse(text))
    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    assert (await again.receive_json_from(timeout=5))["type"] == "welcome"
    await again.send_to(text_data=frame)
    assert await close_code(again) == 4009
    assert parsed == [len(json.dumps(hello(pairing=welcome["pairing"])))]  # the hello only


async def test_a_wallet_closed_for_flooding_that_comes_back_at_once_is_refused_with_4009_before_any_database_work(
    wallet_socket, settings, monkeypatch
):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": FRAME_LIMIT}
    communicator, welcome = await pair(wallet_socket)
    frame = json.dumps({"type": "ping", "pad": "x" * (FRAME_LIMIT - 100)})
    for _ in range(allowance.BURST_FRAMES + 1):  # the burst, then one frame that does not fit
        await communicator.send_to(text_data=frame)
    assert await close_code(communicator) == 4009
    await communicator.disconnect()

    opened = []
    real_open = pairings.open_from_hello
    monkeypatch.setattr(pairings, "open_from_hello", lambda *args: opened.append(args) or real_open(*args))
    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    assert await close_code(again) == 4009  # no welcome before it
    assert opened == []
    # Another pairing's wallet is not touched by it.
    other, _ = await pair(wallet_socket)
    await other.send_to(text_data=frame)
    assert await other.receive_nothing(timeout=0.2)


def test_a_pairing_closed_for_flooding_is_refused_until_its_allowance_holds_a_frame_again(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(allowance.time, "monotonic", lambda: now[0])
    allowances = Allowances()
    spent = allowances.of("digest-1", FRAME_LIMIT)
    assert spent.take(FRAME_LIMIT) and spent.take(FRAME_LIMIT)  # nothing left
    allowances.closed("digest-1", spent)
    assert allowances.refuses("digest-1") and not allowances.refuses("digest-2")
    now[0] += 0.9 / allowance.REFILL_FRAMES_PER_SECOND  # nine tenths of a frame refilled
    assert allowances.refuses("digest-1")
    now[0] += 0.1 / allowance.REFILL_FRAMES_PER_SECOND
    assert not allowances.refuses("digest-1")


async def test_a_wallet_that_comes_back_after_sending_little_keeps_its_room_for_large_frames(
    wallet_socket, settings
):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": FRAME_LIMIT}
    communicator, welcome = await pair(wallet_socket)
    await communicator.send_json_to({"type": "ping"})
    await communicator.disconnect()

    again, _ = await wallet_socket()
    await again.send_json_to(hello(pairing=welcome["pairing"]))
    assert (await again.receive_json_from(timeout=5))["type"] == "welcome"
    frame = json.dumps({"type": "ping", "pad": "x" * (FRAME_LIMIT - 100)})
    for _ in range(allowance.BURST_FRAMES - 1):  # a little less than the burst: the ping took a little
        await again.send_to(text_data=frame)
    assert await again.receive_nothing(timeout=0.2)


def test_the_allowances_forget_pairings_once_refilled_so_the_map_stays_bounded(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(allowance.time, "monotonic", lambda: now[0])
    allowances = Allowances()
    for pairing_id in range(500):
        assert allowances.of(f"digest-{pairing_id}", FRAME_LIMIT).take(FRAME_LIMIT)  # each spent a frame
    assert len(allowances) == 500  # none refilled yet: each is remembered
    now[0] += allowance.BURST_FRAMES / allowance.REFILL_FRAMES_PER_SECOND
    for pairing_id in range(1000, 1200):
        allowances.of(f"digest-{pairing_id}", FRAME_LIMIT)
    assert len(allowances) < 200


def test_a_pairings_connections_share_one_allowance():
    allowances = Allowances()
    first = allowances.of("digest-7", FRAME_LIMIT)
    assert first.take(FRAME_LIMIT) and first.take(FRAME_LIMIT)
    assert not allowances.of("digest-7", FRAME_LIMIT).take(FRAME_LIMIT)
    assert allowances.of("digest-8", FRAME_LIMIT).take(FRAME_LIMIT)  # another pairing's is its own
