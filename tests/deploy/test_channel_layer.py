"""
The Redis channel layer the settings build (REDIS_URL) on a real Redis: an idle
receive waits, a stopped Redis fails fast.
"""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels_redis.core import RedisChannelLayer

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parents[2]
BLOCKING_POP_SECONDS = 5  # channels-redis' brpop_timeout, its BZPOPMIN wait on an idle channel


def layer_config(redis_url):
    """Return CHANNEL_LAYERS["default"]["CONFIG"] as the settings build it for ``redis_url``."""
    import json

    probe = (
        "import json, django; from django.conf import settings; django.setup();"
        " print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "sites.config.settings", "REDIS_URL": redis_url}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    layer = json.loads(done.stdout)
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    return layer["CONFIG"]


async def test_a_receive_idle_longer_than_the_blocking_pop_keeps_waiting(redis_server):
    layer = RedisChannelLayer(**layer_config(redis_server.url))
    channel = await layer.new_channel()
    # Past one BZPOPMIN round: the receive must still be waiting, not fail with redis' own TimeoutError.
    with pytest.raises(TimeoutError) as raised:
        async with asyncio.timeout(BLOCKING_POP_SECONDS + 2):
            await layer.receive(channel)
    assert type(raised.value) is TimeoutError
    await layer.send(channel, {"type": "still.there"})
    async with asyncio.timeout(5):
        assert await layer.receive(channel) == {"type": "still.there"}
    await layer.close_pools()


async def test_a_send_to_a_stopped_redis_fails_within_the_connect_timeout():
    from tests.services import RedisServer, ServiceMissing

    try:
        server = RedisServer()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        config = layer_config(server.url)
        server.stop()
        layer = RedisChannelLayer(**config)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(Exception) as raised:
            async with asyncio.timeout(10):
                await layer.send("somewhere", {"type": "lost"})
        assert type(raised.value) is not TimeoutError, "it hung instead of failing"
        assert loop.time() - started < 5
        await layer.close_pools()


async def test_a_signed_event_verifies_after_a_trip_through_the_redis_layer(redis_server):
    # channels-redis packs events with msgpack and adds (then removes) a key of its own on
    # process-local channels: the MAC must still hold on the other side (byoa.signing).
    from byoa import events, signing

    layer = RedisChannelLayer(**layer_config(redis_server.url))
    channel = await layer.new_channel("byoa")
    event = {**events.call("byoa.x!y", "audio.transcribe", {"language": "é", "n": 1.5}, '{"a":[1]}', 19.75)}
    event["connection"] = "k-1"
    await layer.send(channel, signing.sign_event(event))
    async with asyncio.timeout(5):
        received = await layer.receive(channel)
    assert signing.verified_event(received) == event
    await layer.send(channel, {**signing.sign_event(event), "skill": "text.generate"})
    async with asyncio.timeout(5):
        assert signing.verified_event(await layer.receive(channel)) is None
    await layer.close_pools()
