"""The application takes start-up's objects out of the collector's way, once per process (visitor_ai.collector)."""

import asyncio
import gc
import os
import subprocess
import sys

import pytest

from visitor_ai import collector

# A new server process: the application built as the demo project's asgi.py builds it, then the
# lifespan start-up uvicorn sends. Printed: objects frozen after the build, objects frozen and
# still tracked when the server hears start-up completed, and whether the MCP SDK was in by then.
PROBE = """
import asyncio, gc, sys
import sites.config.asgi
built = gc.get_freeze_count()
async def start():
    seen, heard, messages = {}, asyncio.Event(), [{"type": "lifespan.startup"}]
    async def receive():
        return messages.pop() if messages else await asyncio.Event().wait()  # then wait, as a server does
    async def send(message):
        seen[message["type"]] = (gc.get_freeze_count(), len(gc.get_objects()))
        heard.set()
    task = asyncio.create_task(sites.config.asgi.application({"type": "lifespan"}, receive, send))
    await asyncio.wait_for(heard.wait(), 60)
    task.cancel()
    return seen["lifespan.startup.complete"]
frozen, tracked = asyncio.run(start())
print(built, frozen, tracked, "mcp" in sys.modules)
"""


def test_start_up_is_frozen_when_built_and_what_the_lifespan_built_is_frozen_before_it_completes(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sites.config.settings",
        "VISITOR_AI_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    built, frozen, tracked, mcp = done.stdout.split()
    assert int(built) > 0  # Django, the apps and every view module, with no lifespan yet (daphne)
    assert mcp == "True" and int(frozen) > int(built)  # the MCP SDK the lifespan built is frozen too
    # What the collector still walks is only what came after: a small part of what start-up made.
    assert int(tracked) < int(frozen) // 20


@pytest.fixture
def fresh_process_state(monkeypatch):
    """As if nothing were frozen in this process yet; what the test freezes is thawed after."""
    monkeypatch.setattr(collector, "_frozen", set())
    yield
    gc.unfreeze()  # this test process goes on making and dropping objects


def test_each_moment_of_start_up_is_frozen_once_per_process(fresh_process_state):
    assert collector.freeze_start_up("lifespan") is True
    frozen = gc.get_freeze_count()
    assert frozen > 0 and gc.get_count()[0] < 100  # collected first: start-up's garbage is not frozen in
    made_after = [[] for _ in range(1000)]  # tracked, and alive through the second call
    assert collector.freeze_start_up("lifespan") is False  # a test run builds applications again and again
    assert gc.get_freeze_count() <= frozen and len(made_after) == 1000  # none of them frozen


async def test_the_server_hears_start_up_completed_only_after_the_freeze(fresh_process_state):
    heard = []

    async def lifespan(scope, receive, send):
        await receive()
        await send({"type": "lifespan.startup.complete"})

    async def receive():
        return {"type": "lifespan.startup"}

    async def send(message):
        heard.append((message["type"], "lifespan" in collector._frozen))

    await asyncio.wait_for(collector.FreezeAfterStartup(lifespan)({"type": "lifespan"}, receive, send), 5)
    assert heard == [("lifespan.startup.complete", True)]


async def test_a_failed_start_up_freezes_nothing(fresh_process_state):
    async def lifespan(scope, receive, send):
        await receive()
        await send({"type": "lifespan.startup.failed", "message": "no database"})

    async def receive():
        return {"type": "lifespan.startup"}

    sent = []

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(collector.FreezeAfterStartup(lifespan)({"type": "lifespan"}, receive, send), 5)
    assert sent == [{"type": "lifespan.startup.failed", "message": "no database"}]
    assert "lifespan" not in collector._frozen
