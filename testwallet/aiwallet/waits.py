"""
A request the test AI Wallet is answering (``Answering``) and the waits of its answer: on the
unlock window, an approval window or a held reply, each ended when the page withdraws the
request (``Interrupted``) or the visitor presses Stop. The base of the wallet's answering mixins.
"""

import asyncio
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field

from testwallet.aiwallet.records import Account, Chat, Event, Request, Unlocking
from testwallet.aiwallet.windows import ApprovalWindow, UnlockWindow


class Interrupted(Exception):
    """Raised inside an answer when the page aborted it or the test ended."""


@dataclass(eq=False)
class Answering:
    """A request being answered: its log entry, its events as the page pulls them, and its interruptions."""

    log: Request
    events: AsyncGenerator[Event, None] = field(init=False)  # set once, right after the request opens
    chat: Chat | None = None
    cancelled: bool = False
    stop_pressed: bool = False
    pulling: bool = False
    pulse: asyncio.Event = field(default_factory=asyncio.Event)


class Waits:
    """
    The waits of AiWalletStub's answers. It reads the wallet's state declared below and calls
    the wallet's ``_changed``, and its windows call ``unlock`` and ``_window_closed``.
    """

    # What it reads and changes of the wallet (AiWalletStub sets each in __init__).
    locked: bool
    unlocking: Unlocking
    accounts: list[Account]
    unlock_windows: list[UnlockWindow]
    _unlock_window: UnlockWindow | None
    _pulse: asyncio.Event

    # What it and its windows call of the wallet (AiWalletStub defines each).
    _changed: Callable[[], None]
    unlock: Callable[[], None]
    _window_closed: Callable[[ApprovalWindow | UnlockWindow], None]

    async def _unlocked(self, answering: Answering) -> bool:
        """Return whether the wallet is unlocked, after the visitor's unlock window when it is locked."""
        if not self.locked:
            return True
        window = self._unlock_window
        if window is None:
            # "Requests from several pages at the same moment share one unlock window."
            window = self._unlock_window = UnlockWindow(self)
            self.unlock_windows.append(window)
            self._changed()
            if self.unlocking == "unlock":
                window.unlock()
            elif self.unlocking == "close":
                window.close()
        window.requests.append(answering.log)
        self._changed()
        await self._gate(answering, lambda: window.decision is not None)
        return window.decision == "unlock"

    async def _gate(self, answering: Answering, ready: Callable[[], bool], *events: asyncio.Event) -> None:
        """Wait until ``ready()``; raise Interrupted when the page aborts the request meanwhile."""
        while not ready():
            if answering.cancelled:
                raise Interrupted
            if answering.stop_pressed and answering.chat is not None:
                return
            waits = [asyncio.ensure_future(e.wait()) for e in (self._pulse, answering.pulse, *events)]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()
        if answering.cancelled:
            raise Interrupted
