"""
What one wallet connection may send the server, counted before a frame is
parsed: before the hello, one small frame and a few KiB in all; after it,
frames up to ``BYOA["MAX_FRAME_BYTES"]`` within an allowance that refills and
grows by one frame per call sent. The allowance is the pairing's, kept across
reconnects (``allowances``), so coming back buys a flooding wallet nothing.
"""

from __future__ import annotations

import time

from byoa.wire.protocol import MAX_BEFORE_HELLO_BYTES, MAX_HELLO_BYTES

__all__ = ["Allowance", "Allowances", "allowances"]

# After the hello: the allowance's room and refill, in frames of the largest size.
BURST_FRAMES = 2
REFILL_FRAMES_PER_SECOND = 0.1


class Allowance:
    """The bytes one connection may still send; ``take`` says whether a frame fits."""

    __slots__ = ("_allowance", "_frame_limit", "_paired", "_updated")

    def __init__(self) -> None:
        self._paired = False
        self._frame_limit = MAX_HELLO_BYTES
        self._allowance = float(MAX_BEFORE_HELLO_BYTES)
        self._updated = time.monotonic()

    def paired(self, frame_limit: int) -> None:
        """Called after a valid hello: frames up to ``frame_limit`` bytes, within the refilling allowance."""
        self._paired = True
        self._frame_limit = frame_limit
        self._allowance = float(BURST_FRAMES * frame_limit)
        self._updated = time.monotonic()

    def refilled(self) -> bool:
        """Return True when a paired allowance is back to its full room (or was never spent)."""
        ceiling = BURST_FRAMES * self._frame_limit
        elapsed = time.monotonic() - self._updated
        return self._allowance + elapsed * REFILL_FRAMES_PER_SECOND * self._frame_limit >= ceiling

    def seconds_to_one_frame(self) -> float:
        """Return how long until a paired allowance holds one frame of the largest size again."""
        now = time.monotonic()
        refilled = self._allowance + (now - self._updated) * REFILL_FRAMES_PER_SECOND * self._frame_limit
        return max(0.0, (self._frame_limit - refilled) / (REFILL_FRAMES_PER_SECOND * self._frame_limit))

    def call_sent(self) -> None:
        """Make room for the result of a call just sent to the wallet."""
        self._allowance += self._frame_limit

    def take_text(self, text: str) -> bool:
        """Count a text frame against the allowance; return False when it does not fit (close the socket)."""
        # Its length in characters is a lower bound of its UTF-8 size, four times it an upper one:
        # the exact size is computed only when the frame is close to a bound.
        size = len(text)
        if size <= self._frame_limit and (size * 4 > self._frame_limit or size * 4 > self._allowance):
            size = len(text.encode("utf-8", "surrogatepass"))
        return self.take(size)

    def take(self, size: int) -> bool:
        """Count a frame of ``size`` bytes against the allowance; return False when it does not fit."""
        if size > self._frame_limit:
            return False
        if self._paired:
            now = time.monotonic()
            ceiling = BURST_FRAMES * self._frame_limit
            if self._allowance < ceiling:
                refill = (now - self._updated) * REFILL_FRAMES_PER_SECOND * self._frame_limit
                self._allowance = min(ceiling, self._allowance + refill)
            self._updated = now
        if size > self._allowance:
            return False
        self._allowance -= size
        return True


class Allowances:
    """Each pairing's allowance after its hello, kept across reconnects until it has refilled."""

    __slots__ = ("_by_pairing", "_closed_until", "_prune_at")

    def __init__(self) -> None:
        self._by_pairing: dict[str, Allowance] = {}
        self._closed_until: dict[str, float] = {}  # token digest -> monotonic time
        self._prune_at = _PRUNE_AT

    def closed(self, token_digest: str, allowance: Allowance) -> None:
        """Note that a pairing's connection was closed for sending past its allowance."""
        now = time.monotonic()
        if len(self._closed_until) >= _PRUNE_AT:
            for key in [key for key, until in self._closed_until.items() if until <= now]:
                del self._closed_until[key]
        self._closed_until[token_digest] = now + allowance.seconds_to_one_frame()

    def refuses(self, token_digest: str) -> bool:
        """Return True while the pairing of this token digest was closed for flooding and has not refilled."""
        until = self._closed_until.get(token_digest)
        return until is not None and time.monotonic() < until

    def of(self, token_digest: str, frame_limit: int) -> Allowance:
        """Return the allowance of the pairing (by its token's digest) whose wallet just said a valid hello."""
        allowance = self._by_pairing.get(token_digest)
        if allowance is None or allowance._frame_limit != frame_limit or allowance.refilled():
            if len(self._by_pairing) >= self._prune_at:
                self._forget_refilled()
            allowance = Allowance()
            allowance.paired(frame_limit)
            self._by_pairing[token_digest] = allowance
        return allowance

    def _forget_refilled(self) -> None:
        # Amortised: a full pass only when the map has doubled since the last one.
        for pairing_id in [key for key, allowance in self._by_pairing.items() if allowance.refilled()]:
            del self._by_pairing[pairing_id]
        self._prune_at = max(_PRUNE_AT, 2 * len(self._by_pairing))

    def __len__(self) -> int:
        return len(self._by_pairing)


_PRUNE_AT = 64

#: This process's allowances.
allowances = Allowances()
