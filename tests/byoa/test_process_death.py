"""
A caller in another process whose call was acknowledged, when the wallet's
process then dies (it stops beating), gives up within the liveness bound
(``BYOA["STALE_SECONDS"]``), not at its deadline (issue 40, item 5).
"""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa import processes, tokens
from byoa.calls import call_wallet
from byoa.models import Pairing
from tests.byoa.conftest import pair

pytestmark = pytest.mark.django_db(transaction=True)

get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))


@pytest.fixture(autouse=True)
def quick_liveness(settings):
    settings.BYOA = {**settings.BYOA, "BEAT_SECONDS": 0.2, "STALE_SECONDS": 1}
    processes._beating.clear()
    yield
    processes._beating.clear()


async def outcome(caller):
    """Return the call's output, or the class name of what it raised (byoa.calls may raise its outcomes)."""
    try:
        return await caller
    except Exception as exc:
        return type(exc).__name__


async def test_a_call_acknowledged_by_a_process_that_then_dies_ends_within_the_liveness_bound(
    wallet_socket, monkeypatch, hub
):
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await hub.start()
    monkeypatch.setattr(hub.connections, "get", lambda pairing_id: None)  # the caller is elsewhere
    loop = asyncio.get_running_loop()
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"  # acknowledged on the way
    started = loop.time()
    hub.processes.stop()  # the wallet's process stops beating, as a killed one does; its wallet never answers
    result = await asyncio.wait_for(outcome(caller), 20)  # the deadline is 60 s away
    assert result is None or isinstance(result, str)  # no output
    assert loop.time() - started < 10


async def test_a_call_to_a_process_that_keeps_beating_waits_for_its_result(wallet_socket, monkeypatch, hub):
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await hub.start()
    monkeypatch.setattr(hub.connections, "get", lambda pairing_id: None)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    call = await communicator.receive_json_from(timeout=5)
    # Longer than the liveness bound: the process beats meanwhile, so the caller keeps waiting.
    assert await communicator.receive_nothing(timeout=2.5)
    assert not caller.done()
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 10) == {"text": "ok"}
