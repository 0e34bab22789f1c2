"""
The per-process cache of pairings' live addresses (byoa.addresses), through
``pairings.live_channel`` and ``call_wallet``, on both transports: a call does
not read the address every time, and every way an address goes stale (the
wallet reconnected elsewhere, its pairing paused, its process suspected or
gone) fails fast and falls back, never reaching another connection.

A connection "in another process" is one the hub reaches only by its address
(through its transport and its own inbox), not by pairing.
"""

import asyncio
import secrets

import pytest
from channels.db import database_sync_to_async
from django.apps import apps

from byoa import clock, events, pairings
from byoa.addresses import LiveAddresses
from byoa.calls import call_wallet
from byoa.exceptions import WalletOffline
from byoa.hub import Hub
from byoa.models import Pairing, ServerProcess
from tests.polling import until

pytestmark = pytest.mark.django_db(transaction=True)


class Remote:
    """A wallet connection the hub reaches only by its address: it answers every call with its name."""

    heard = 0.0

    def __init__(self, hub, name):
        self.hub = hub
        self.name = name
        self.calls = 0
        self.channel_name = hub.transport.address(hub.connections.new_key(self))

    async def dispatch(self, message):
        if message["type"] == events.CALL:
            self.calls += 1
            reply = self.hub.transport.reply_to(message["reply"])
            await reply.send(events.result(True, {"text": self.name}))

    async def start_call(self, reply, skill, params, body, deadline):
        raise AssertionError("reached only through the transport")

    async def silent(self):
        pass

    def leave(self):
        """As its consumer does when the socket is gone: events to its address find nobody."""
        self.hub.connections.forget_key(self.channel_name.rpartition("#")[2])


@pytest.fixture(params=["channel-layer", pytest.param("redis", marks=pytest.mark.live)])  # redis: a server
async def remote_hub(request, byoa_settings):
    """A started hub on either transport (this process's own), installed as the process's."""
    byoa_settings.VISITOR_AI_SPEEDUPS = {}
    if request.param == "redis":
        url = request.getfixturevalue("redis_server").url
        byoa_settings.VISITOR_AI_SPEEDUPS["redis_transport"] = {"URL": url}
    config = apps.get_app_config("byoa")
    previous, hub = config.hub, Hub()
    config.hub = hub
    await hub.start()
    try:
        yield hub
    finally:
        config.hub = previous
        await hub.transport.aclose()
        hub.cancel()


async def new_pairing(address):
    now = clock.now()
    return await Pairing.objects.acreate(
        token_digest=secrets.token_hex(32),
        visitor="visitor-a",
        manifest_name="geo",
        grant={},
        channel_name=address,
        created_at=now,
        last_seen=now,
    )


async def set_address(pairing, address):
    await Pairing.objects.filter(pk=pairing.pk).aupdate(channel_name=address)


async def test_an_address_read_once_is_used_again_without_reading_it(remote_hub):
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await pairings.live_channel(pairing) == first.channel_name
    # Changed behind the cache's back: the next read within its seconds does not see it...
    await set_address(pairing, "")
    assert await pairings.live_channel(pairing) == first.channel_name
    # ...a fresh one does, and forgets it.
    assert await pairings.live_channel(pairing, fresh=True) == ""
    assert len(remote_hub.addresses) == 0


async def test_an_address_is_kept_from_when_it_was_read_however_often_it_is_asked_for(remote_hub):
    remote_hub.addresses = LiveAddresses(seconds=0.2)
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await pairings.live_channel(pairing) == first.channel_name
    await set_address(pairing, "")  # the wallet left: its consumer detached the pairing
    # Asked more often than the cache's seconds, as a page polling its state asks: the address
    # read before the wallet left still goes stale, and the database's "" is read.
    async with asyncio.timeout(5):
        assert await until(lambda: pairings.live_channel(pairing), lambda address: address == "") == ""


async def test_a_call_to_a_wallet_that_reconnected_elsewhere_falls_back_to_its_new_address(remote_hub):
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await call_wallet(pairing, "audio.transcribe", {}, timeout=5) == {"text": "first"}
    # The wallet comes back on another connection (another process, as far as the cache knows).
    first.leave()
    second = Remote(remote_hub, "second")
    await set_address(pairing, second.channel_name)
    assert remote_hub.addresses.get(pairing.pk) == first.channel_name  # stale, and still cached
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await call_wallet(pairing, "audio.transcribe", {}, timeout=30) == {"text": "second"}
    assert loop.time() - started < 1  # told at once, not at the acceptance window
    assert remote_hub.addresses.get(pairing.pk) == second.channel_name
    assert await call_wallet(pairing, "audio.transcribe", {}, timeout=5) == {"text": "second"}
    assert (first.calls, second.calls) == (1, 2)  # never the old connection again


async def test_a_call_to_a_wallet_gone_away_raises_wallet_offline_at_once_and_forgets_its_address(remote_hub):
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await call_wallet(pairing, "audio.transcribe", {}, timeout=5) == {"text": "first"}
    first.leave()
    await pairings.detach(pairing.pk, first.channel_name)  # as its consumer does
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(WalletOffline):
        await call_wallet(pairing, "audio.transcribe", {}, timeout=30)
    assert loop.time() - started < 1
    assert remote_hub.addresses.get(pairing.pk) == ""


async def test_pausing_a_pairing_in_this_process_forgets_its_address_at_once(remote_hub):
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await pairings.live_channel(pairing) == first.channel_name
    await database_sync_to_async(pairings.stop_pairings)(
        Pairing.objects.filter(pk=pairing.pk), Pairing.Status.PAUSED
    )
    assert await pairings.live_channel(pairing) == ""
    with pytest.raises(WalletOffline):
        await call_wallet(pairing, "audio.transcribe", {}, timeout=5)
    assert first.calls == 0


async def test_deleting_a_pairing_in_this_process_forgets_its_address_at_once(remote_hub):
    first = Remote(remote_hub, "first")
    pairing = await new_pairing(first.channel_name)
    assert await pairings.live_channel(pairing) == first.channel_name
    pk = pairing.pk  # delete() sets it to None
    await pairing.adelete()
    assert len(remote_hub.addresses) == 0
    with pytest.raises(WalletOffline):
        await call_wallet(pk, "audio.transcribe", {}, timeout=5)
    assert first.calls == 0


async def test_an_address_in_a_process_taken_for_dead_is_away_before_any_call_is_sent(remote_hub):
    other = "byoa.another-process"
    now = clock.now()
    await ServerProcess.objects.acreate(inbox=other, host="h", pid=1, started_at=now, beat_at=now)
    pairing = await new_pairing(f"{other}#1")
    assert await pairings.live_channel(pairing) == f"{other}#1"
    remote_hub.processes.suspect(other)  # a call to it went unacknowledged
    assert await pairings.live_channel(pairing) == ""
    assert len(remote_hub.addresses) == 0
    await ServerProcess.objects.filter(inbox=other).adelete()  # swept
    assert await pairings.live_channel(pairing) == ""
    assert await pairings.live_channel(await new_pairing("byoa.no-such-process#1")) == ""
    assert len(remote_hub.addresses) == 0


async def test_the_cache_expires_its_addresses_and_stays_bounded():
    cache = LiveAddresses(seconds=0.05, most=3)
    cache.put(1, "a#1")
    assert cache.get(1) == "a#1"
    await asyncio.sleep(0.06)  # past the cache's own seconds (a bound on it, not a timed assertion)
    assert cache.get(1) == ""
    for pk in range(10):
        cache.put(pk, f"a#{pk}")
        assert len(cache) <= 3
    cache.forget(9, "another#9")
    assert cache.get(9) == "a#9"  # only the address it was told of is forgotten
    cache.forget(9, "a#9")
    assert cache.get(9) == ""
