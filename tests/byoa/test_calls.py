"""
call_wallet and stream_wallet against the consumer (WebsocketCommunicator as
the wallet), each test twice: the caller in the connection's process (the
call goes to the consumer directly) and, as a caller in another process sees
it, through the database and the channel layer.
"""

import ast
import asyncio
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from byoa import calls, clock
from byoa.calls import call_wallet, stream_wallet
from byoa.delivery import events, receipts
from byoa.exceptions import (
    CallRefused,
    NoPairing,
    TooManyCalls,
    WalletDeclined,
    WalletLeft,
    WalletOffline,
    WalletProcessGone,
    WalletTimeout,
)
from byoa.models import CallLog, Pairing
from byoa.pairing import pairings, tokens
from tests.byoa.conftest import pair
from tests.polling import until

pytestmark = pytest.mark.django_db(transaction=True)

CLIP = {"audio": {"mime": "audio/wav", "base64": "UklGRg=="}}


@pytest.fixture(autouse=True, params=["same-process", "channel-layer"])
def call_path(request):
    """Run each test with the caller beside the connection, then as if in another process."""
    if request.param == "channel-layer":
        request.getfixturevalue("caller_elsewhere")
    return request.param


async def paired(wallet_socket, **options):
    communicator, welcome = await pair(wallet_socket, **options)
    pairing = await database_sync_to_async(Pairing.objects.get)(
        token_digest=tokens.digest(welcome["pairing"])
    )
    return communicator, pairing


async def a_call_gets_through(wallet, pairing):
    """Make one call, answer it as the wallet, and check the caller gets the output."""
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}})
    assert await asyncio.wait_for(caller, 5) == {"text": "ok"}


async def handled(pairing):
    """Return once the connection has handled the wallet's frames sent so far: none of its calls is in flight."""
    connection = events.wallet_connections[pairing.pk]
    async with asyncio.timeout(5):
        await until(lambda: asyncio.sleep(0, len(connection.calls)), lambda count: count == 0)


async def test_a_call_goes_to_the_wallet_and_its_output_comes_back(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(
        call_wallet(pairing, "audio.transcribe", CLIP, {"language": "sk"}, timeout=5)
    )
    call = await wallet.receive_json_from(timeout=5)
    assert call == {
        "type": "call",
        "id": call["id"],
        "skill": "audio.transcribe",
        "input": CLIP,
        "params": {"language": "sk"},
    }
    await wallet.send_json_to(
        {
            "type": "result",
            "id": call["id"],
            "ok": True,
            "output": {"text": "Peru"},
            "receipt": {"cost": "0.001 USD", "provider": "local"},
        }
    )
    assert await asyncio.wait_for(caller, 5) == {"text": "Peru"}


async def test_a_call_leaves_a_receipt_without_its_content(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing.pk, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to(
        {
            "type": "result",
            "id": call["id"],
            "ok": True,
            "output": {"text": "Peru"},
            "receipt": {"cost": "0.002 USD", "provider": "openrouter"},
        }
    )
    await asyncio.wait_for(caller, 5)
    await receipts.flush()
    log = await database_sync_to_async(CallLog.objects.get)()
    assert (log.skill, log.ok, log.cost, log.provider) == (
        "audio.transcribe",
        True,
        "0.002 USD",
        "openrouter",
    )
    assert "Peru" not in str(log.__dict__) and "UklGR" not in str(log.__dict__)


async def test_a_failed_result_raises_wallet_declined(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": False})
    with pytest.raises(WalletDeclined) as raised:
        await asyncio.wait_for(caller, 5)
    assert (raised.value.pairing_id, raised.value.skill) == (pairing.pk, "audio.transcribe")


async def test_a_result_without_an_output_object_raises_wallet_declined(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": "Peru"})
    with pytest.raises(WalletDeclined):
        await asyncio.wait_for(caller, 5)


async def test_a_call_without_a_pairing_raises_no_pairing_and_touches_nothing():
    with pytest.raises(NoPairing, match="has not connected a wallet"):
        await call_wallet(None, "audio.transcribe", CLIP, timeout=5)


async def test_results_are_matched_by_id_not_by_order(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    first = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, {"n": 1}, timeout=5))
    one = await wallet.receive_json_from(timeout=5)
    second = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, {"n": 2}, timeout=5))
    two = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": two["id"], "ok": True, "output": {"text": "two"}})
    await wallet.send_json_to({"type": "result", "id": one["id"], "ok": True, "output": {"text": "one"}})
    assert await asyncio.wait_for(asyncio.gather(first, second), 5) == [{"text": "one"}, {"text": "two"}]


async def test_a_result_id_spelled_as_a_float_bool_or_string_is_not_accepted(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    for spelled in (float(call["id"]), True, str(call["id"])):
        await wallet.send_json_to({"type": "result", "id": spelled, "ok": True, "output": {"text": "fake"}})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "real"}})
    assert await asyncio.wait_for(caller, 5) == {"text": "real"}


async def test_calls_over_max_parallel_calls_raise_too_many_calls_without_reaching_the_wallet(wallet_socket):
    wallet, pairing = await paired(wallet_socket, limits={"maxParallelCalls": 2})
    held = [
        asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)) for _ in range(2)
    ]
    frames = [await wallet.receive_json_from(timeout=5) for _ in held]
    with pytest.raises(TooManyCalls, match="maxParallelCalls"):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)
    assert await wallet.receive_nothing(timeout=0.1)
    for frame in frames:
        await wallet.send_json_to({"type": "result", "id": frame["id"], "ok": True, "output": {"text": "x"}})
    assert await asyncio.wait_for(asyncio.gather(*held), 5) == [{"text": "x"}] * 2


async def test_max_parallel_calls_is_4_when_the_grant_says_none(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    held = [
        asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)) for _ in range(4)
    ]
    for _ in held:
        await wallet.receive_json_from(timeout=5)
    with pytest.raises(TooManyCalls):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)
    await wallet.disconnect()
    outcomes = await asyncio.wait_for(asyncio.gather(*held, return_exceptions=True), 5)
    assert [type(outcome) for outcome in outcomes] == [WalletLeft] * 4


async def test_a_skill_that_is_not_granted_raises_call_refused_without_reaching_the_wallet(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    with pytest.raises(CallRefused) as raised:
        await call_wallet(pairing, "text.generate", {"messages": []}, timeout=5)
    assert type(raised.value) is CallRefused  # not TooManyCalls: waiting would not help
    assert await wallet.receive_nothing(timeout=0.1)


async def test_only_granted_models_may_be_named(wallet_socket):
    wallet, pairing = await paired(wallet_socket, site="quiz", skills=["text.generate"], models=["m1", "m2"])
    with pytest.raises(CallRefused):
        await call_wallet(pairing, "text.generate", {"messages": []}, {"model": "m3"}, timeout=5)
    assert await wallet.receive_nothing(timeout=0.1)
    caller = asyncio.ensure_future(
        call_wallet(pairing, "text.generate", {"messages": []}, {"model": "m2"}, timeout=5)
    )
    call = await wallet.receive_json_from(timeout=5)
    assert call["params"] == {"model": "m2"}
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "yes"}})
    assert await asyncio.wait_for(caller, 5) == {"text": "yes"}


async def test_a_model_cannot_be_named_when_the_grant_lists_none(wallet_socket):
    _wallet, pairing = await paired(wallet_socket, site="quiz", skills=["text.generate"])
    with pytest.raises(CallRefused):
        await call_wallet(pairing, "text.generate", {"messages": []}, {"model": "m1"}, timeout=5)


async def test_an_expired_grant_raises_call_refused(wallet_socket):
    wallet, pairing = await paired(wallet_socket, minutes=-1)
    with pytest.raises(CallRefused):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)
    assert await wallet.receive_nothing(timeout=0.1)


async def test_a_call_times_out_with_wallet_timeout_and_its_late_result_is_dropped_quietly(
    wallet_socket, settings
):
    settings.BYOA = {**settings.BYOA, "UNSOLICITED_RESULTS": 1}
    wallet, pairing = await paired(wallet_socket, limits={"maxParallelCalls": 1})
    with pytest.raises(WalletTimeout, match=r"within 0\.2 s") as raised:
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.2)
    assert isinstance(raised.value, TimeoutError) and raised.value.timeout == 0.2
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "late"}})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "later"}})
    # The slot is free again and the connection still open.
    await handled(pairing)
    await a_call_gets_through(wallet, pairing)


async def test_a_wallet_that_drops_mid_call_raises_wallet_left_at_once(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=30))
    await wallet.receive_json_from(timeout=5)
    started = asyncio.get_running_loop().time()
    await wallet.disconnect(code=1006)
    with pytest.raises(WalletLeft):
        await asyncio.wait_for(caller, 5)
    assert asyncio.get_running_loop().time() - started < 2


async def test_a_call_to_a_wallet_that_is_away_raises_wallet_offline_at_once(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    await wallet.disconnect()
    with pytest.raises(WalletOffline, match="not connected now"):
        await asyncio.wait_for(call_wallet(pairing, "audio.transcribe", CLIP, timeout=30), 2)


async def test_a_stream_yields_the_chunk_deltas_then_the_output(wallet_socket):
    wallet, pairing = await paired(wallet_socket, site="quiz", skills=["text.generate"])
    stream = stream_wallet(
        pairing, "text.generate", {"messages": [{"role": "user", "content": "Is it big?"}]}, timeout=5
    )
    deltas = []

    async def read():
        async for delta in stream:
            deltas.append(delta)

    reader = asyncio.ensure_future(read())
    call = await wallet.receive_json_from(timeout=5)
    assert call["params"] == {"stream": True}
    for piece in ("Ye", "s"):
        await wallet.send_json_to({"type": "chunk", "id": call["id"], "delta": piece})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Yes"}})
    await asyncio.wait_for(reader, 5)
    assert deltas == ["Ye", "s"] and stream.output == {"text": "Yes"}


async def test_a_stream_the_wallet_declines_raises_from_the_iteration_after_its_deltas(wallet_socket):
    wallet, pairing = await paired(wallet_socket, site="quiz", skills=["text.generate"])
    stream = stream_wallet(pairing, "text.generate", {"messages": []}, timeout=5)
    deltas = []

    async def read():
        async for delta in stream:
            deltas.append(delta)

    reader = asyncio.ensure_future(read())
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "chunk", "id": call["id"], "delta": "Ye"})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": False})
    with pytest.raises(WalletDeclined):
        await asyncio.wait_for(reader, 5)
    assert deltas == ["Ye"] and stream.output is None


async def test_chunks_of_a_call_made_without_stream_are_not_forwarded(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "chunk", "id": call["id"], "delta": "Pe"})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}})
    assert await asyncio.wait_for(caller, 5) == {"text": "Peru"}


async def test_a_timed_out_call_keeps_its_slot_until_its_late_result_comes(wallet_socket):
    wallet, pairing = await paired(wallet_socket, limits={"maxParallelCalls": 1})
    with pytest.raises(WalletTimeout):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.2)
    late = await wallet.receive_json_from(timeout=5)
    # The wallet is still working on it: one more would be two at once.
    with pytest.raises(TooManyCalls):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)
    assert await wallet.receive_nothing(timeout=0.1)
    await wallet.send_json_to({"type": "result", "id": late["id"], "ok": True, "output": {"text": "late"}})
    await handled(pairing)
    await a_call_gets_through(wallet, pairing)


async def test_a_timed_out_call_without_a_late_result_frees_its_slot_after_max_call_seconds(
    wallet_socket, monkeypatch
):
    wallet, pairing = await paired(wallet_socket, limits={"maxParallelCalls": 1, "maxCallSeconds": 30})
    with pytest.raises(WalletTimeout):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.2)
    await wallet.receive_json_from(timeout=5)
    with pytest.raises(TooManyCalls):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=5)
    later = clock.now() + timedelta(seconds=31)
    monkeypatch.setattr("byoa.clock.now", lambda: later)
    await a_call_gets_through(wallet, pairing)


async def test_a_call_that_times_out_leaves_one_failed_receipt_even_when_its_result_comes_late(wallet_socket):
    wallet, pairing = await paired(wallet_socket)
    with pytest.raises(WalletTimeout):
        await call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.2)
    call = await wallet.receive_json_from(timeout=5)

    async def written():
        await receipts.flush()
        return await database_sync_to_async(CallLog.objects.count)()

    # The connection's own deadline, its failed receipt: from another process it ends after the
    # caller's, by the hop (the caller sends what it has left), which a loaded machine makes long.
    async with asyncio.timeout(5):
        await until(written, lambda count: count == 1)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}})
    await wallet.send_json_to({"type": "bye"})  # handled after the late result: frames are sequential
    await wallet.receive_output(5)
    await receipts.flush()
    log = await database_sync_to_async(CallLog.objects.get)()  # one: the late result added none
    # The wallet held it until the caller's deadline: the timeout, less the hop from another process.
    assert (log.skill, log.ok) == ("audio.transcribe", False) and log.duration_ms > 100
    assert "Peru" not in str(log.__dict__) and "UklGR" not in str(log.__dict__)


async def test_a_call_dropped_by_a_disconnect_leaves_a_failed_receipt(wallet_socket):
    wallet, pairing = await paired(wallet_socket, site="quiz", skills=["text.generate"], models=["m1"])
    caller = asyncio.ensure_future(
        call_wallet(pairing, "text.generate", {"messages": []}, {"model": "m1"}, timeout=30)
    )
    await wallet.receive_json_from(timeout=5)
    await wallet.disconnect(code=1006)
    with pytest.raises(WalletLeft):
        await asyncio.wait_for(caller, 5)
    await receipts.flush()
    log = await database_sync_to_async(CallLog.objects.get)()
    assert (log.skill, log.model, log.ok, log.cost) == ("text.generate", "m1", False, "")


async def test_a_call_refused_without_reaching_the_wallet_leaves_no_receipt(wallet_socket):
    _wallet, pairing = await paired(wallet_socket)
    with pytest.raises(CallRefused):
        await call_wallet(pairing, "text.generate", {"messages": []}, timeout=5)
    await receipts.flush()
    assert await database_sync_to_async(CallLog.objects.count)() == 0


def test_calls_does_not_import_the_consumer():
    tree = ast.parse(Path(calls.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    assert "byoa.consumers" not in imported


async def test_calls_to_a_channel_nobody_reads_raise_process_gone_at_their_deadline():
    # Its process was killed: its pairing still names the channel of its connection, which nobody reads.
    def killed_process_pairing():
        now = clock.now()
        return Pairing.objects.create(
            token_digest=f"d{uuid.uuid4().hex}",
            visitor="v",
            manifest_name="geo",
            channel_name=f"specific.{uuid.uuid4().hex}!{uuid.uuid4().hex}",
            created_at=now,
            last_seen=now,
        )

    pairing = await database_sync_to_async(killed_process_pairing)()
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(WalletProcessGone):
        await asyncio.wait_for(call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.3), 10)
    # Sent, and waited for the connection's own "timeout" past the deadline, in vain.
    assert loop.time() - started >= 0.3 + calls.GRACE_SECONDS
    # Nothing marks the pairing away: the next call, too, ends at its own deadline (DESIGN.md: a call to
    # a process that died ends at its deadline), until the wallet says hello elsewhere or LIVE_SECONDS pass.
    assert await pairings.live_channel(pairing.pk) == pairing.channel_name
    with pytest.raises(WalletProcessGone):
        await asyncio.wait_for(call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.3), 10)
