"""
The channel-layer events of ``byoa``: what callers (``byoa.calls``), the admin
(``byoa.admin``) and wallet connections (``byoa.consumers``) send each other.

An event's ``type`` names the handler of the consumer that receives it
(``byoa.call`` -> ``WalletConsumer.byoa_call``); ``RESULT`` and ``CHUNK`` go to
a caller's own reply channel, which no consumer reads. The frames on the
wallet's socket are another matter: see ``byoa.protocol``.
"""

from collections.abc import Mapping
from typing import Final, Literal, NotRequired, TypedDict

CALL: Final = "byoa.call"  # caller -> connection: send this call to the wallet
REPLACED: Final = "byoa.replaced"  # newer connection -> older one of the same pairing: say bye
CLOSE: Final = "byoa.close"  # admin -> connection: the pairing was paused or revoked, say bye
RESULT: Final = "byoa.result"  # connection -> caller: the call's outcome
CHUNK: Final = "byoa.chunk"  # connection -> caller: one streamed delta
ACCEPTED: Final = "byoa.accepted"  # connection's process -> caller: the call reached a live process
GONE: Final = "byoa.gone"  # transport -> caller: no connection at that address; the call reached no wallet
CANCEL: Final = "byoa.cancel"  # caller in another process -> connection: the caller left, forget its call
PROBE: Final = "byoa.probe"  # a process's transport -> its own inbox: is it still read?


class CallEvent(TypedDict):
    """Caller -> connection: send this call to the wallet, the outcome to channel ``reply``."""

    type: Literal["byoa.call"]
    reply: str
    skill: str
    params: dict[str, object]
    input: str  # the call's input, as JSON (protocol.call_input)
    timeout: float  # the seconds the caller had left when it sent the call


class CancelEvent(TypedDict):
    """Caller in another process -> connection: the caller whose reply channel is ``reply`` left mid-call.

    The connection forgets that call and frees its slot, as for a caller in its own process
    (``calls.LocalReply.close``). Sent once, at most once delivered: a cancel that is lost
    leaves the call to end at its deadline.
    """

    type: Literal["byoa.cancel"]
    reply: str


class NoticeEvent(TypedDict):
    """A newer connection or the admin -> connection: say bye and close."""

    type: Literal["byoa.replaced", "byoa.close"]


#: Why a call gave no output: a failed ``ResultEvent``'s ``failure``. ``byoa.calls`` raises one
#: exception for each (``byoa.exceptions``); a page never learns which (specs/byoa-sites.md).
Failure = Literal[
    "declined",  # the wallet answered ok: false, or ok: true without an output object
    "refused",  # outside the grant (skill, model, expiry): not sent
    "too_many",  # the grant's maxParallelCalls already in flight: not sent
    "closing",  # the connection was closing when the call came: not sent
    "left",  # the connection closed with the call in flight
    "timeout",  # the call's deadline passed before its result
    "transport",  # the transport between processes stopped with the call waiting
]


class ResultEvent(TypedDict):
    """Connection -> caller: the call's outcome (``output`` None unless ``ok``; ``failure`` only unless ``ok``)."""

    type: Literal["byoa.result"]
    ok: bool
    output: dict[str, object] | None
    failure: NotRequired[Failure]


class ChunkEvent(TypedDict):
    """Connection -> caller: one streamed delta."""

    type: Literal["byoa.chunk"]
    delta: str


class AcceptedEvent(TypedDict):
    """Connection's process -> caller: the call reached a live process."""

    type: Literal["byoa.accepted"]


class GoneEvent(TypedDict):
    """Transport -> caller: the address named no connection, so no wallet saw the call (it may be sent again).

    ``process``: True when the address's process answered (its connection left
    since the address was read); False when no process reads that inbox at all.
    """

    type: Literal["byoa.gone"]
    process: bool


#: What a caller reads from the connection (through ``byoa.inflight.Reply``) or from the transport.
ReplyEvent = ResultEvent | ChunkEvent | AcceptedEvent | GoneEvent

#: What callers still waiting hear when their process's transport stops.
FAILED: Final[ResultEvent] = {"type": RESULT, "ok": False, "output": None, "failure": "transport"}
#: What a process's inbox sends a caller in another process as soon as a call reaches it.
ACCEPTANCE: Final[AcceptedEvent] = {"type": ACCEPTED}
#: What a process's inbox sends a caller whose call names a connection no longer there.
LEFT: Final[GoneEvent] = {"type": GONE, "process": True}
#: What a caller's transport tells it when no process reads the address's inbox.
UNREAD: Final[GoneEvent] = {"type": GONE, "process": False}


def call(reply: str, skill: str, params: dict[str, object], input_json: str, timeout: float) -> CallEvent:
    """Return the event that asks a connection to call its wallet; the outcome goes to channel ``reply``.

    ``input_json`` is the call's input as JSON (``protocol.call_input``): encoded
    once, by the caller, it crosses the layer as one string. The connection
    builds the frame from ``skill`` and ``params``, the fields it checks against
    the grant, and this input (``protocol.call_text``).
    """
    return {
        "type": CALL,
        "reply": reply,
        "skill": skill,
        "params": params,
        "input": input_json,
        "timeout": timeout,
    }


def is_call(event: Mapping[str, object]) -> bool:
    """Return True when a call event has each field of the type ``CallEvent`` says (else it is dropped)."""
    timeout = event.get("timeout")
    return (
        isinstance(event.get("reply"), str)
        and isinstance(event.get("skill"), str)
        and isinstance(event.get("params"), dict)
        and isinstance(event.get("input"), str)
        and isinstance(timeout, (int, float))
        and not isinstance(timeout, bool)
    )


def cancel(reply: str) -> CancelEvent:
    """Return the event that tells a connection the caller at channel ``reply`` left before the outcome."""
    return {"type": CANCEL, "reply": reply}


def result(ok: bool, output: dict[str, object] | None) -> ResultEvent:
    """Return the outcome of a call the wallet answered: its output, or ``declined``."""
    if ok and output is not None:
        return {"type": RESULT, "ok": True, "output": output}
    return failed("declined")


def failed(failure: Failure) -> ResultEvent:
    """Return the outcome of a call that gave no output, saying why (``Failure``)."""
    return {"type": RESULT, "ok": False, "output": None, "failure": failure}


def chunk(delta: str) -> ChunkEvent:
    """Return one streamed delta for a caller."""
    return {"type": CHUNK, "delta": delta}
