"""
The frames of the direct link (specs/byoa-sites.md, "The frames"), their limits and the close
codes this server sends, in one place for the server and any wallet. It needs no Django, so a
wallet imports it without a project (``testwallet.direct`` does).

A frame means something only when it is a JSON object whose ``type`` is a string (``kind_of``);
any other valid JSON is ignored. The close codes (the spec's 1007, 1008 and 1009 go on the wire
as 4007, 4008 and 4009) and when each is sent: docs/explanation/modules.md.
"""

import enum
import json
import math
import re
from collections.abc import Mapping
from typing import Literal, NoReturn, NotRequired, TypedDict

import orjson

from byoa.wire._errors import NotJSON

__all__ = [
    "JSON",
    "MAX_BEFORE_HELLO_BYTES",
    "MAX_FRAME_BYTES",
    "MAX_HELLO_BYTES",
    "MAX_MANIFEST_BYTES",
    "VERSION",
    "ByeFrame",
    "CallFrame",
    "ChunkFrame",
    "CloseCode",
    "ErrorFrame",
    "Frame",
    "FrameType",
    "GrantFrame",
    "HelloFrame",
    "NotJSON",
    "OutgoingFrame",
    "PingFrame",
    "ResultFrame",
    "WelcomeFrame",
    "bad_session",
    "bye",
    "call",
    "call_input",
    "call_text",
    "chunk",
    "chunk_delta",
    "dump",
    "grant_change",
    "grant_of",
    "hello",
    "kind_of",
    "parse",
    "ping",
    "result",
    "welcome",
]

#: A JSON value, as a frame carries it.
type JSON = bool | int | float | str | list[JSON] | dict[str, JSON] | None

#: A parsed frame: a JSON object from the other side, not yet checked (which
#: fields it has depends on its ``type``; read each with ``isinstance``).
Frame = dict[str, object]

#: The frame types the spec names (``kind_of`` returns any string: others mean nothing).
FrameType = Literal["welcome", "error", "call", "bye", "hello", "result", "chunk", "grant", "ping"]


# The frames this module builds, one TypedDict each (server -> wallet, then wallet -> server).


class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    pairing: str  # the pairing token, sent once
    manifest: str  # the link's manifest, base64url, echoed byte for byte


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: Literal["bad-session"]


class CallFrame(TypedDict):
    type: Literal["call"]
    id: int
    skill: str
    input: object
    params: object


class ByeFrame(TypedDict):
    type: Literal["bye"]


class HelloFrame(TypedDict):
    type: Literal["hello"]
    v: str
    session: str | None  # the link's code, for a first hello
    pairing: str | None  # the pairing token, for a wallet that comes back
    wallet: Mapping[str, str]  # its name and version, both optional
    grant: Mapping[str, object]  # see byoa.pairing.grants for its fields


class ResultFrame(TypedDict):
    type: Literal["result"]
    id: object  # the call's id, as the wallet echoes it
    ok: bool
    output: NotRequired[object]
    receipt: NotRequired[Mapping[str, object]]


class ChunkFrame(TypedDict):
    type: Literal["chunk"]
    id: object
    delta: str


class GrantFrame(TypedDict):
    type: Literal["grant"]
    grant: Mapping[str, object]


class PingFrame(TypedDict):
    type: Literal["ping"]


#: Any frame this module builds.
OutgoingFrame = (
    WelcomeFrame
    | ErrorFrame
    | CallFrame
    | ByeFrame
    | HelloFrame
    | ResultFrame
    | ChunkFrame
    | GrantFrame
    | PingFrame
)

VERSION = "0.1"
#: The largest text frame either side sends, in bytes (the spec: up to 4 MB). The server reads it
#: as BYOA["MAX_FRAME_BYTES"], and daphne is configured to the same value (sites/config/settings.py).
MAX_FRAME_BYTES = 4 * 1024 * 1024
#: The largest frame read before a valid hello: a hello carries two tokens, a wallet's name
#: and a grant (at most 32 skills and 32 models, byoa.pairing.grants), a few KiB at most.
MAX_HELLO_BYTES = 16 * 1024
#: What a socket may send in all before its hello is valid (a hello, and a few frames beside it).
MAX_BEFORE_HELLO_BYTES = 4 * MAX_HELLO_BYTES
#: The largest manifest a link (and so a welcome) carries, in bytes (specs/byoa-sites.md, "Links").
MAX_MANIFEST_BYTES = 4096


class CloseCode(enum.IntEnum):
    """The close codes this server sends (the docs' modules page has the table)."""

    NORMAL = 1000  # bye, replaced by a newer connection, paused or revoked
    NOT_JSON = 4007  # the spec's 1007
    POLICY = 4008  # the spec's 1008: no hello, bad session, unsolicited results
    TOO_BIG = (
        4009  # the spec's 1009: over the frame cap or the connection's allowance (byoa.delivery.allowance)
    )


def _no_constant(name: str) -> NoReturn:
    # NaN, Infinity and -Infinity are Python's extension, not JSON (RFC 8259,
    # section 6); stored in a JSONField they fail the database's JSON check.
    raise NotJSON(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e999: valid JSON syntax, but Python reads it as Infinity
        raise NotJSON("a number too large for a double")
    return value


_decoder = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)


# orjson reads an integer beyond 64 bits as a float; the standard decoder keeps it exact. A frame
# with a run of 19 ASCII digits anywhere (in a string too) goes to the standard decoder. The run
# is found on the frame's UTF-8 bytes with every digit mapped to "0" and every other byte to a
# space (no digit is part of another character's UTF-8 bytes), not by a regular expression:
# that held the event loop far longer than orjson on a large frame (benchmarks/ws_flood.py --probe).
_DIGITS_AS_ZEROS = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_NUMBER_RUN = b"0" * 19


def _has_long_number(text: str) -> bool:
    """Return True when ``text`` has a run of at least 19 ASCII digits."""
    return _LONG_NUMBER_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZEROS)


def parse(text: str) -> Frame | None:
    """Return the frame as a dict, or None for JSON that is not an object."""
    # orjson first, for speed (benchmarks/frame_codec.py times it beside the
    # standard decoder, and this function whole). It accepts only what
    # RFC 8259 does, as the decoder below does; where it refuses (NaN, a lone
    # surrogate, nesting past 1024) or might round a long integer, the standard
    # decoder gives the verdict, so every frame means what it meant before.
    if not _has_long_number(text):
        try:
            frame = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            return frame if isinstance(frame, dict) else None
    try:
        frame = _decoder.decode(text)
    # ValueError covers NotJSON from the hooks above and, deliberately, an
    # integer of more than 4300 digits (Python's int conversion limit): such a
    # frame is treated as not JSON. RecursionError: nesting too deep.
    except (ValueError, RecursionError) as exc:
        raise NotJSON("the frame is not JSON") from exc
    # "\ud800" alone is JSON syntax, but no Unicode text: no database, hash or
    # encoder downstream can take it (RFC 8259, section 8.2, leaves it undefined).
    if _SURROGATE_ESCAPE.search(text) is not None and _has_lone_surrogate(frame):
        raise NotJSON("a string holds a lone UTF-16 surrogate")
    return frame if isinstance(frame, dict) else None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value: object) -> bool:
    """Return True when a string anywhere in the decoded value is not valid Unicode text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def kind_of(frame: Frame | None) -> str | None:
    """Return the type of a parsed frame, or None when it has no string type (such a frame means nothing)."""
    kind = frame.get("type") if frame is not None else None
    # Only a string names a frame: a list or an object must never reach a
    # lookup by type, where it is unhashable.
    return kind if isinstance(kind, str) else None


def dump(frame: Mapping[str, object]) -> str:
    """Return the JSON text of a frame."""
    # orjson: a call frame carries a clip of up to 4 MB, and the standard
    # library's encoder is many times slower on it (benchmarks/frame_codec.py). Non-string keys are
    # written as strings, as json.dumps does; NaN and infinities become null
    # (json.dumps would write NaN, which is not JSON).
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


# Server -> wallet


def welcome(pairing: str, manifest: str) -> WelcomeFrame:
    """The server's answer to a valid hello: the pairing token and the manifest the link carried."""
    return {"type": "welcome", "pairing": pairing, "manifest": manifest}


def bad_session() -> ErrorFrame:
    """The server's answer to a hello it cannot accept (the connection closes with 4008)."""
    return {"type": "error", "code": "bad-session"}


def call(call_id: int, skill: str, input: object, params: object) -> CallFrame:
    """A server -> wallet call."""
    return {"type": "call", "id": call_id, "skill": skill, "input": input, "params": params}


def _json(value: object) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def call_input(input: object) -> str:
    """Return the JSON of a call's input: encoded once, by the caller, whichever process sends the frame."""
    return _json(input)


def call_text(call_id: int, skill: str, params: object, input_json: str) -> str:
    """Return the JSON text of a call frame: the same text as ``dump(call(...))``.

    ``skill`` and ``params`` are the ones the grant was checked against; only
    the input comes encoded (``call_input``), as one JSON value.
    """
    return f'{{"type":"call","id":{call_id:d},"skill":{_json(skill)},"input":{input_json},"params":{_json(params)}}}'


def bye() -> ByeFrame:
    """Either side's last frame before a normal close."""
    return {"type": "bye"}


# Wallet -> server


def hello(
    session: str | None, pairing: str | None, wallet: Mapping[str, str], grant: Mapping[str, object]
) -> HelloFrame:
    """A wallet's first frame: a link's code (``session``) or a pairing token, who it is, what it grants."""
    return {
        "type": "hello",
        "v": VERSION,
        "session": session,
        "pairing": pairing,
        "wallet": wallet,
        "grant": grant,
    }


def result(
    call_id: object, ok: bool, output: object = None, receipt: Mapping[str, object] | None = None
) -> ResultFrame:
    """A wallet's answer to a call: its output when ``ok`` (and a receipt), nothing else when not."""
    frame: ResultFrame = {"type": "result", "id": call_id, "ok": ok}
    if ok:
        frame["output"] = output
        if receipt is not None:
            frame["receipt"] = receipt
    return frame


def chunk(call_id: object, delta: str) -> ChunkFrame:
    """One piece of a streamed answer, sent before the call's result (DESIGN.md)."""
    return {"type": "chunk", "id": call_id, "delta": delta}


def chunk_delta(frame: Frame) -> str | None:
    """Return the text of a chunk frame, or None when it has none."""
    delta = frame.get("delta")
    return delta if isinstance(delta, str) else None


def grant_change(grant: Mapping[str, object]) -> GrantFrame:
    """A change of grant, the same shape as the hello's grant (DESIGN.md)."""
    return {"type": "grant", "grant": grant}


def grant_of(frame: Frame) -> dict[str, object] | None:
    """Return the grant carried by a hello or a grant frame, or None."""
    grant = frame.get("grant")
    return grant if isinstance(grant, dict) else None


def ping() -> PingFrame:
    """A wallet's keep-alive (every 30 s)."""
    return {"type": "ping"}
