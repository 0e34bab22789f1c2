"""
A cassette in use: each request to a model server goes through ``Cassette``,
which answers from the recording, or asks the model server and records what it
answered, as the mode says. Everything that asks a model in the test wallet
(the relay of the in-page stand-ins, the headless wallet) goes through here.

- ``none`` (or unset): replay only. A request with no recording raises
  ``NotRecorded``, naming it and how it differs from the nearest recorded one;
  the model server is never asked.
- ``new``: replay what is recorded, ask and record what is not.
- ``all``: ask the model server for everything and record it anew.
"""

import asyncio
import enum
import json
import os
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from testwallet.cassette import format, matching
from testwallet.cassette.exceptions import NotRecorded

#: What a secret is replaced with, should one reach a recorded request or answer.
REDACTED = "[redacted]"


class Mode(enum.Enum):
    """Whether a cassette replays, records, or both."""

    NONE = "none"  # replay only
    NEW = "new"  # replay, and record what is not recorded
    ALL = "all"  # record everything anew

    @classmethod
    def named(cls, name: str | None) -> "Mode":
        """Return the mode of a TESTWALLET_RECORD value ('' or None: replay only)."""
        try:
            return cls((name or "none").strip().lower())
        except ValueError:
            raise ValueError(f"TESTWALLET_RECORD must be all, new or none, not {name!r}") from None


class Cassette:
    """The recorded answers of one file, and the mode that says whether to add to them."""

    def __init__(
        self, path: Path | str, mode: Mode = Mode.NONE, *, pacing: bool = False, secrets: Iterable[str] = ()
    ) -> None:
        self.path = Path(path)
        self.mode = mode
        #: Keep the recorded time between a stream's pieces: record it, and wait it on replay.
        self.pacing = pacing
        self.secrets = tuple(secret for secret in secrets if secret)
        self._lock = threading.Lock()
        self._served: Counter[str] = Counter()
        if mode is Mode.ALL:
            self.entries: list[format.Entry] = []
        elif mode is Mode.NEW and not self.path.exists():
            self.entries = []
        else:
            self.entries = format.read(self.path)

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] = os.environ, *, secrets: Iterable[str] = ()
    ) -> "Cassette | None":
        """Return the cassette TESTWALLET_CASSETTE names (TESTWALLET_RECORD, _PACING), or None."""
        path = environ.get("TESTWALLET_CASSETTE", "")
        if not path:
            return None
        pacing = environ.get("TESTWALLET_PACING", "") not in ("", "0")
        return cls(path, Mode.named(environ.get("TESTWALLET_RECORD")), pacing=pacing, secrets=secrets)

    @property
    def asks_models(self) -> bool:
        """Whether a request with no recording may go to the model server."""
        return self.mode is not Mode.NONE

    # -- The ways -------------------------------------------------------------------------------

    async def chat(
        self, body: dict[str, Any], ask: Callable[[], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any]:
        """Return the chat completion for a request body: recorded, or asked with `ask` and recorded."""
        asked = format.chat_asked({**body, "stream": False})
        entry = self._recorded("chat", asked)
        if entry is not None:
            completion: dict[str, Any] = entry["answer"]["completion"]
            return completion
        completion = format.answer_object(await ask(), asked)
        self._record("chat", asked, {"completion": completion})
        return completion

    async def chat_stream(
        self, body: dict[str, Any], ask: Callable[[], Awaitable[AsyncIterator[dict[str, Any]]]]
    ) -> AsyncIterator[dict[str, Any]]:
        """
        Return the events of a streamed chat: recorded (at their recorded pace when
        pacing is on), or asked and recorded once the stream ends well. Raises
        NotRecorded before any event when replay has no recording of it.
        """
        asked = format.chat_asked({**body, "stream": True})
        entry = self._recorded("chat", asked)
        if entry is not None:
            return self._replay_stream(entry["answer"])
        return self._record_stream(asked, await ask())

    async def _replay_stream(self, answer: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        gaps = answer.get("pacing_ms") if self.pacing else None
        for index, event in enumerate(answer["stream"]):
            if isinstance(gaps, list) and index < len(gaps):
                await asyncio.sleep(gaps[index] / 1000)  # the recorded pace, asked for by TESTWALLET_PACING
            yield event

    async def _record_stream(
        self, asked: dict[str, Any], events: AsyncIterator[dict[str, Any]]
    ) -> AsyncIterator[dict[str, Any]]:
        kept: list[dict[str, Any]] = []
        gaps: list[int] = []
        last = time.monotonic()
        async for event in events:
            if "error" in event:  # the model server broke off: passed on, never recorded
                yield event
                return
            now = time.monotonic()
            gaps.append(round((now - last) * 100) * 10)  # to 10 ms
            last = now
            event = format.answer_object(event, asked)
            kept.append(event)
            yield event
        answer: dict[str, Any] = {"stream": kept}
        if self.pacing:
            answer["pacing_ms"] = gaps
        self._record("chat", asked, answer)

    async def transcribe(
        self, wav: bytes, language: str | None, ask: Callable[[], Awaitable[dict[str, str]]]
    ) -> dict[str, str]:
        """Return what was heard in a clip: recorded (found by the clip's hash), or asked and recorded."""
        asked = format.transcribe_asked(wav, language)
        entry = self._recorded("transcribe", asked)
        if entry is not None:
            return {"text": str(entry["answer"]["text"])}
        heard = await ask()
        self._record("transcribe", asked, {"text": heard["text"]})
        return {"text": heard["text"]}

    # -- The recording --------------------------------------------------------------------------

    def _recorded(self, way: str, asked: dict[str, Any]) -> format.Entry | None:
        """
        Return the entry answering this request, or None when the model is to be asked.
        The n-th time a request comes, the n-th entry of it answers (the last one, past them).
        """
        key = format.canonical([way, self._scrubbed(asked)])
        if self.mode is Mode.ALL:
            return None
        with self._lock:
            same = [e for e in self.entries if format.canonical([e["way"], e["asked"]]) == key]
            if same:
                entry = same[min(self._served[key], len(same) - 1)]
                self._served[key] += 1
                return entry
        if self.asks_models:
            return None
        raise self._miss(way, asked)

    def _record(self, way: str, asked: dict[str, Any], answer: dict[str, Any]) -> None:
        entry = {"way": way, "asked": self._scrubbed(asked), "answer": self._scrubbed(answer)}
        with self._lock:
            self.entries.append(entry)
            key = format.canonical([way, entry["asked"]])
            self._served[key] += 1
            format.write(self.path, format.dumps(self.entries))

    def _scrubbed(self, value: dict[str, Any]) -> dict[str, Any]:
        """Return the value with every secret the cassette was given replaced (it is written to a file)."""
        if not self.secrets:
            return value
        text = json.dumps(value, ensure_ascii=False)
        for secret in self.secrets:
            text = text.replace(json.dumps(secret, ensure_ascii=False)[1:-1], REDACTED)
        scrubbed: dict[str, Any] = json.loads(text)
        return scrubbed

    def _miss(self, way: str, asked: dict[str, Any]) -> NotRecorded:
        what = describe_request(way, asked)
        same_way = [(number, e) for number, e in enumerate(self.entries) if e["way"] == way]
        found = matching.nearest(asked, [e["asked"] for _, e in same_way])
        if found is None:
            nearest = f"the cassette has no {way} request at all"
        else:
            index, differing = found
            nearest = f"nearest is entry {same_way[index][0]}: {matching.describe(differing)}"
        return NotRecorded(
            self.path,
            f"No recorded answer for {what} (replay only; record it with TESTWALLET_RECORD=new); {nearest}",
            asked=what,
            nearest=nearest,
        )


def describe_request(way: str, asked: dict[str, Any]) -> str:
    """Return a request as an error names it: its way and what the visitor last said, or its clip."""
    if way == "transcribe":
        return f"the transcription of clip {asked.get('clip')} ({asked.get('bytes')} bytes)"
    last = next(
        (m for m in reversed(asked.get("messages") or []) if isinstance(m, dict) and m.get("role") == "user"),
        None,
    )
    said = matching.excerpt(last.get("content")) if last else "(no user message)"
    kind = "streamed chat" if asked.get("stream") else "chat"
    return f"the {kind} request ending {said}"
