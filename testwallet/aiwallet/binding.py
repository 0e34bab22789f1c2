"""
The binding the page's provider calls (``hello``, ``listen``, ``request``, ``next``, ``cancel``):
the pages the wallet knows, the requests they open and pull the answers of, and the link notices
it sends them. A mixin of ``AiWalletStub`` (driver.py), on top of ``Answers``, which answers
each request.
"""

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from testwallet._driver import frame_origin, pulse
from testwallet.aiwallet.answers import Answers
from testwallet.aiwallet.events import error_event
from testwallet.aiwallet.records import SCRIPT_FAILED, Event, Request, WalletLink
from testwallet.aiwallet.waits import Answering

if TYPE_CHECKING:
    from playwright.async_api import Frame

#: A link notice for a page, or None: the listening is over.
Notice = dict[str, Any] | None

#: The Playwright binding the page calls (frontend/testwallet/aiwallet.js).
BINDING = "__testwalletAiwallet"


@dataclass(eq=False)
class _Page:
    id: str
    origin: str
    frame: "Frame"
    notices: asyncio.Queue[Notice] = field(default_factory=asyncio.Queue)

    def is_open(self) -> bool:
        page = getattr(self.frame, "page", None)
        closed = page is not None and page.is_closed()
        return not closed and not self.frame.is_detached()


class PageBinding(Answers):
    """
    The page-facing half of AiWalletStub: what the binding does for each call of the page's
    provider, and the link notices. It reads and changes the wallet's state declared below.
    """

    # What it reads and changes of the wallet (AiWalletStub sets each in __init__).
    requests: list[Request]
    notices: list[tuple[str, WalletLink]]
    _pages: dict[str, _Page]
    _answering: dict[object, Answering]
    _cancelled_early: set[object]

    # -- The binding ------------------------------------------------------------------------------

    async def _on_call(self, source: dict[str, Any], message: dict[str, Any]) -> Event | Notice:
        """Called by Playwright for each call of the binding from a page."""
        op = message.get("op")
        if op == "hello":
            self._hello(source["frame"], message["page"])
            return None
        if op == "listen":
            page = self._pages.get(message["page"])
            return await page.notices.get() if page is not None else None
        if op == "request":
            self._open(message, frame_origin(source["frame"]))
            return None
        if op == "next":
            return await self._next(message["id"])
        if op == "cancel":
            await self._cancel(message["id"])
            return None
        raise ValueError(
            f"Unknown op {op!r} from the page script; expected hello, listen, request, next or cancel."
        )

    def _hello(self, frame: "Frame", page_id: str) -> None:
        for old_id, old in list(self._pages.items()):
            if old.frame is frame or not old.is_open():  # that document was replaced or closed
                old.notices.put_nowait(None)
                del self._pages[old_id]
        self._pages[page_id] = _Page(page_id, frame_origin(frame), frame)

    def _open(self, message: dict[str, Any], origin: str) -> None:
        log = Request(message["method"], message.get("params"), origin)
        self.requests.append(log)
        answering = Answering(log)
        answering.events = self._answer(answering)
        if message["id"] in self._cancelled_early:
            answering.cancelled = True
        self._answering[message["id"]] = answering
        self._changed()

    async def _next(self, request_id: object) -> Event | None:
        answering = self._answering.get(request_id)
        if answering is None:
            return None
        answering.pulling = True
        try:
            event = await anext(answering.events, None)
        except Exception as error:  # a bug of the driver or of the test's model function
            self._script_errors.append(error)
            event = error_event(SCRIPT_FAILED, f"The test wallet's script failed: {error}")
        finally:
            answering.pulling = False
        if event is None or event["kind"] in ("result", "error"):
            answering.log.answer = event
            self._answering.pop(request_id, None)
            self._changed()
        return event

    async def _cancel(self, request_id: object) -> None:
        answering = self._answering.get(request_id)
        if answering is None:
            self._cancelled_early.add(request_id)
            return None
        answering.cancelled = True
        pulse(answering)
        if not answering.pulling:  # the answer sits at a yield: close it there
            self._answering.pop(request_id, None)
            await answering.events.aclose()
        return None

    # -- Link notices -----------------------------------------------------------------------------

    def _vault_changed(self) -> None:
        """Send every open page of an approved origin its link ("each time the vault's contents change")."""
        self._changed()
        if self.locked:
            return
        for origin in {page.origin for page in self._pages.values()}:
            if origin in self._sites:
                self._notify(origin, self.link(origin))

    def _notify(self, origin: str, link: WalletLink) -> None:
        self.notices.append((origin, link))
        for page_id, page in list(self._pages.items()):
            if page.origin != origin:
                continue
            if page.is_open():
                page.notices.put_nowait({"kind": "link", "link": dict(link)})
            else:
                del self._pages[page_id]
