"""
The Redis channel layers the settings build (REDIS_URL) on a real Redis:
channels-redis's pub/sub layer by default, its core layer with
REDIS_CHANNEL_LAYER=core. An idle receive waits, a stopped Redis fails fast,
a signed event survives the trip.
"""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils.module_loading import import_string

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parents[2]
BLOCKING_POP_SECONDS = 5  # channels-redis' brpop_timeout, its BZPOPMIN wait on an idle channel


def layer_settings(redis_url, **environment):
    """Return CHANNEL_LAYERS["default"] as the settings build it for ``redis_url``."""
    import json

    probe = (
        "import json, django; from django.conf import settings; django.setup();"
        " print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    )
    env = {key: value for key, value in os.environ.items() if key != "REDIS_CHANNEL_LAYER"}
    env.update(DJANGO_SETTINGS_MODULE="sites.config.settings", REDIS_URL=redis_url, **environment)
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def settings_layer(redis_url, layer="pubsub"):
    """Return the layer the settings build for ``redis_url`` (``layer``: REDIS_CHANNEL_LAYER)."""
    configured = layer_settings(redis_url, REDIS_CHANNEL_LAYER=layer)
    return import_string(configured["BACKEND"])(**configured["CONFIG"])


async def close(layer):
    """Close the layer's connections (the core layer's ``flush`` would also delete its keys)."""
    await (layer.close_pools() if hasattr(layer, "close_pools") else layer.flush())


def test_the_settings_choose_the_pubsub_layer_and_the_core_one_when_asked():
    assert (
        layer_settings("redis://127.0.0.1:1/0")["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    )
    core = layer_settings("redis://127.0.0.1:1/0", REDIS_CHANNEL_LAYER="core")
    assert core["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    sharded = layer_settings("redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0")
    assert [host["address"] for host in sharded["CONFIG"]["hosts"]] == [
        "redis://10.0.0.1:6379/0",
        "redis://10.0.0.2:6379/0",
    ]


def test_an_unknown_layer_name_fails_at_start_with_a_message_naming_the_choices():
    with pytest.raises(subprocess.CalledProcessError) as raised:
        layer_settings("redis://127.0.0.1:1/0", REDIS_CHANNEL_LAYER="lists")
    assert "REDIS_CHANNEL_LAYER is 'lists': 'pubsub' (the default) or 'core'." in raised.value.stderr


async def test_a_receive_idle_longer_than_the_blocking_pop_keeps_waiting_on_the_core_layer(redis_server):
    layer = settings_layer(redis_server.url, "core")
    channel = await layer.new_channel()
    # Past one BZPOPMIN round: the receive must still be waiting, not fail with redis' own TimeoutError.
    with pytest.raises(TimeoutError) as raised:
        async with asyncio.timeout(BLOCKING_POP_SECONDS + 2):
            await layer.receive(channel)
    assert type(raised.value) is TimeoutError
    await layer.send(channel, {"type": "still.there"})
    async with asyncio.timeout(5):
        assert await layer.receive(channel) == {"type": "still.there"}
    await close(layer)


@pytest.mark.parametrize("layer_name", ["pubsub", "core"])
async def test_a_send_to_a_stopped_redis_fails_within_the_connect_timeout(layer_name):
    from tests.services import RedisServer, ServiceMissing

    try:
        server = RedisServer()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        url = server.url
        server.stop()
        layer = settings_layer(url, layer_name)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(Exception) as raised:
            async with asyncio.timeout(10):
                await layer.send("somewhere", {"type": "lost"})
        assert type(raised.value) is not TimeoutError, "it hung instead of failing"
        assert loop.time() - started < 5
        await close(layer)


@pytest.mark.parametrize("layer_name", ["pubsub", "core"])
async def test_a_signed_event_verifies_after_a_trip_through_the_redis_layer(redis_server, layer_name):
    # channels-redis packs events with msgpack (and the core layer adds, then removes, a key of
    # its own on process-local channels): the MAC must still hold on the other side (byoa.delivery.signing).
    from byoa.delivery import signing

    layer = settings_layer(redis_server.url, layer_name)
    channel = await layer.new_channel()
    # A call event as byoa.calls sends it (byoa.delivery.events adds the id and the reply channel).
    event = {
        "type": "byoa.call",
        "skill": "audio.transcribe",
        "params": {"language": "é", "n": 1.5},
        "input": '{"a":[1]}',
        "timeout": 19.75,
        "id": 2**53 - 1,
        "reply": "specific.x!y",
    }
    await layer.send(channel, signing.sign_event(event, channel))
    async with asyncio.timeout(5):
        received = await layer.receive(channel)
    assert signing.verified_event(received, channel) == event
    await layer.send(channel, {**signing.sign_event(event, channel), "skill": "text.generate"})
    async with asyncio.timeout(5):
        assert signing.verified_event(await layer.receive(channel), channel) is None
    await close(layer)


DEPLOY_PAGE = ROOT / "docs/howto/deploy.md"


def deploy_page_layers():
    """Return CHANNEL_LAYERS["default"] of each block of docs/howto/deploy.md this test is named beside."""
    import re
    from types import SimpleNamespace

    page = DEPLOY_PAGE.read_text(encoding="utf-8")
    blocks = re.findall(
        r"<!-- tested: tests/deploy/test_channel_layer.py [^>]*-->\n+```python\n(.*?)```",
        page,
        flags=re.DOTALL,
    )
    layers = []
    for body in blocks:
        names = {}
        # The page's own settings, as a settings.py runs them (REDIS_URL as the page's environment gives it).
        exec(body, {"os": SimpleNamespace(environ={"REDIS_URL": "redis://127.0.0.1:6379/0"})}, names)
        layers.append(names["CHANNEL_LAYERS"]["default"])
    return layers


async def carries_an_event(layer):
    channel = await layer.new_channel("byoa")
    await layer.send(channel, {"type": "hello"})
    async with asyncio.timeout(5):
        assert await layer.receive(channel) == {"type": "hello"}
    await close(layer)


async def test_the_deploy_pages_own_layer_carries_an_event_on_a_real_redis(redis_server):
    plain, _sentinel = deploy_page_layers()
    assert plain["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    config = {**plain["CONFIG"], "hosts": [redis_server.url]}  # the page's, on this test's Redis
    await carries_an_event(import_string(plain["BACKEND"])(**config))


async def test_the_deploy_pages_sentinel_entry_finds_redis_through_a_real_sentinel(tmp_path):
    import redis as redis_py

    from tests.polling import until
    from tests.services import RedisServer, ServiceMissing, _free_port

    _plain, sentinel = deploy_page_layers()
    [entry] = sentinel["CONFIG"]["hosts"]
    try:
        server = RedisServer(persistent=False)
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        port = _free_port()
        conf = tmp_path / "sentinel.conf"  # Sentinel rewrites its file: it must be its own
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\n"
            f"sentinel monitor {entry['master_name']} 127.0.0.1 {server.port} 1\n"
        )
        sentinel_process = await asyncio.create_subprocess_exec(
            "redis-server", str(conf), "--sentinel", stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        try:
            client = redis_py.asyncio.Redis(port=port)

            async def master():
                try:
                    return await client.sentinel_get_master_addr_by_name(entry["master_name"])
                except redis_py.ConnectionError:
                    return None

            async with asyncio.timeout(15):
                await until(master, lambda found: found is not None)
            await client.aclose()
            config = {**sentinel["CONFIG"], "hosts": [{**entry, "sentinels": [("127.0.0.1", port)]}]}
            await carries_an_event(import_string(sentinel["BACKEND"])(**config))
        finally:
            sentinel_process.terminate()
            await asyncio.wait_for(sentinel_process.wait(), 10)
