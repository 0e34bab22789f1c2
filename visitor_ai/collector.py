"""
Start-up's objects out of the cyclic garbage collector's way, once per process.

Everything a server process makes while it starts lives as long as the
process: settings, apps, models, every view module once the URL configuration
is imported, the manifests, and on a server with a lifespan (uvicorn) the MCP
SDK with pydantic's schemas, which the MCP endpoint builds there. Left
tracked, all of it is walked by every pass of the collector's oldest
generation, a pause of the event loop in the middle of whichever calls and
requests it falls on (benchmarks/byoa_calls.py prints the passes and the
longest; the docs' performance page has the figures). ``gc.freeze()``, a
documented part of the standard library, moves what is tracked to a
generation the collector never walks.

The application does this itself, on the plain path:

- when ``get_asgi_application()`` has built it (the URL configuration
  imported first, so that every view module is in), for servers with no
  lifespan (daphne);
- again when the lifespan's start-up completes (uvicorn, hypercorn), for what
  start-up built after that.

Each happens once per process, garbage collected first: a cycle that is frozen
is never collected even when dropped, so the freeze takes only what start-up
keeps, and a process that builds the application again and again (a test
run) freezes only the first time.
"""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["FreezeAfterStartup", "freeze_start_up"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# The moments of start-up frozen in this process so far ("built", "lifespan").
_frozen: set[str] = set()


def freeze_start_up(moment: str) -> bool:
    """Collect start-up's garbage and freeze the rest, unless this moment was frozen before; say whether it ran."""
    if moment in _frozen:
        return False
    _frozen.add(moment)
    if moment == "built":
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018  # imports every URL module and so every view module
    gc.collect()  # garbage first: what is frozen is never collected
    gc.freeze()
    return True


class FreezeAfterStartup:
    """The ASGI lifespan, wrapped: what start-up built is frozen just before the server hears it completed."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app  # the lifespan application this one wraps

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_after_freezing(message: Message) -> None:
            if message["type"] == "lifespan.startup.complete":
                freeze_start_up("lifespan")
            await send(message)

        await self.app(scope, receive, send_after_freezing)
