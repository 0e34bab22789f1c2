"""
Start-up's objects out of the cyclic garbage collector's way, once per process.

``get_asgi_application()`` calls ``gc.freeze()``, garbage collected first, once it has built
the application (for servers with no lifespan: daphne) and again when the lifespan's start-up
completes (uvicorn, hypercorn); each once per process. What start-up builds lives as long as the
process, and left tracked it would be walked by every pass of the oldest generation, a pause of
the event loop. Why: docs/explanation/modules.md; the figures: docs/explanation/performance.md.
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
