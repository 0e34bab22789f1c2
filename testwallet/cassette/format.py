"""
The cassette file: one JSON document a person reviews, read and written only here.

Requests and answers are normalised, keys sorted and indented, so recording the same answers
twice writes the same bytes. The format: docs/reference/cassette.md.
"""

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from testwallet.cassette.exceptions import CassetteUnreadable

#: The format this test wallet writes, and the newest it reads.
FORMAT = 1
#: The key that says a JSON document is a cassette, with its format as the value.
MARK = "testwallet_cassette"
#: The ways a request reaches a model server.
WAYS = ("chat", "transcribe")
#: What an answer's objects carry that changes on every call and means nothing to a page.
VOLATILE = frozenset({"id", "created", "system_fingerprint", "timings"})

Entry = dict[str, Any]


def canonical(value: Any) -> str:
    """Return the one JSON text of a value that matching compares: keys sorted, no spaces."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def chat_asked(body: dict[str, Any]) -> dict[str, Any]:
    """Return a chat request as recorded: without the model's name, tool call ids numbered by first use."""
    numbers: dict[str, str] = {}

    def number(call_id: Any) -> str:
        return numbers.setdefault(str(call_id), f"call_{len(numbers) + 1}")

    messages = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            messages.append(message)
            continue
        message = dict(message)
        if isinstance(message.get("tool_calls"), list):
            message["tool_calls"] = [
                {**call, "id": number(call.get("id"))} if isinstance(call, dict) else call
                for call in message["tool_calls"]
            ]
        if "tool_call_id" in message:
            message["tool_call_id"] = number(message["tool_call_id"])
        messages.append(message)
    asked = {key: value for key, value in body.items() if key != "model"}
    asked["messages"] = messages
    asked["stream"] = bool(body.get("stream"))
    return asked


def transcribe_asked(wav: bytes, language: str | None) -> dict[str, Any]:
    """Return a transcription request as recorded: the clip by its hash and size, never its audio."""
    asked: dict[str, Any] = {"clip": f"sha256:{hashlib.sha256(wav).hexdigest()}", "bytes": len(wav)}
    if language:
        asked["language"] = language
    return asked


def call_id(asked: dict[str, Any], index: int) -> str:
    """Return the id of an answer's tool call: the same whenever the same request is answered."""
    return f"call_{hashlib.sha256(canonical(asked).encode()).hexdigest()[:12]}_{index}"


def answer_object(value: dict[str, Any], asked: dict[str, Any]) -> dict[str, Any]:
    """Return a completion or stream event as recorded: volatile keys out, tool call ids from the request."""
    kept = {key: item for key, item in value.items() if key not in VOLATILE}
    choices = kept.get("choices")
    if isinstance(choices, list):
        kept["choices"] = [_choice(choice, asked) for choice in choices]
    # Keys sorted as the file keeps them, so the page gets the same bytes recording as replaying.
    ordered: dict[str, Any] = json.loads(canonical(kept))
    return ordered


def _choice(choice: Any, asked: dict[str, Any]) -> Any:
    if not isinstance(choice, dict):
        return choice
    choice = dict(choice)
    for part in ("message", "delta"):
        body = choice.get(part)
        if isinstance(body, dict) and isinstance(body.get("tool_calls"), list):
            calls = []
            for position, call in enumerate(body["tool_calls"]):
                if isinstance(call, dict) and "id" in call:
                    call = {**call, "id": call_id(asked, call.get("index", position))}
                calls.append(call)
            choice[part] = {**body, "tool_calls": calls}
    return choice


def read(path: Path) -> list[Entry]:
    """Return a cassette's entries; raise CassetteUnreadable, naming the file, for anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CassetteUnreadable(
            path, "There is no cassette here: record one with TESTWALLET_RECORD=all and a model server"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise CassetteUnreadable(path, f"The cassette cannot be read ({type(error).__name__})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        if error.pos >= len(text.rstrip()):
            raise CassetteUnreadable(
                path,
                f"The cassette is truncated: it ends at byte {len(text)} before its JSON does; record it again",
            ) from None
        raise CassetteUnreadable(
            path, f"The cassette is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    if not isinstance(document, dict) or not isinstance(document.get(MARK), int):
        raise CassetteUnreadable(path, f"This JSON is not a test-wallet cassette (no {MARK!r} format number)")
    if document[MARK] > FORMAT:
        raise CassetteUnreadable(
            path,
            f"The cassette is of format {document[MARK]}, newer than this test wallet reads ({FORMAT}): "
            "upgrade the test wallet",
        )
    entries = document.get("entries")
    if not isinstance(entries, list):
        raise CassetteUnreadable(path, "The cassette has no list of entries")
    for number, entry in enumerate(entries):
        if not (
            isinstance(entry, dict)
            and entry.get("way") in WAYS
            and isinstance(entry.get("asked"), dict)
            and isinstance(entry.get("answer"), dict)
        ):
            raise CassetteUnreadable(path, f"Entry {number} is not {{way, asked, answer}} of a known way")
    return entries


def dumps(entries: list[Entry]) -> str:
    """Return the cassette's text: sorted keys and an indent, so a diff shows one change per line."""
    return json.dumps({MARK: FORMAT, "entries": entries}, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def write(path: Path, text: str) -> None:
    """Write the cassette whole or not at all: to a temporary file beside it, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); a cassette is shared in the repository like its neighbours.
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
