"""
The channel-layer events of ``byoa``: what callers (``byoa.calls``), the admin
(``byoa.admin``) and wallet connections (``byoa.consumers``) send each other.

An event's ``type`` names the handler of the consumer that receives it
(``byoa.call`` -> ``WalletConsumer.byoa_call``); ``RESULT`` and ``CHUNK`` go to
a caller's own reply channel, which no consumer reads. The frames on the
wallet's socket are another matter: see ``byoa.protocol``.
"""

CALL = "byoa.call"  # caller -> connection: send this call to the wallet
REPLACED = "byoa.replaced"  # newer connection -> older one of the same pairing: say bye
CLOSE = "byoa.close"  # admin -> connection: the pairing was paused or revoked, say bye
RESULT = "byoa.result"  # connection -> caller: the call's outcome
CHUNK = "byoa.chunk"  # connection -> caller: one streamed delta
ACCEPTED = "byoa.accepted"  # connection's process -> caller: the call reached a live process

#: The outcome of every call that gives the caller None.
FAILED = {"type": RESULT, "ok": False, "output": None}
#: What a process's inbox sends a caller in another process as soon as a call reaches it.
ACCEPTANCE = {"type": ACCEPTED}


def call(reply, skill, params, body, timeout):
    """Return the event that asks a connection to call its wallet; the outcome goes to channel ``reply``.

    ``body`` is the frame's JSON without its id (``protocol.call_body``): the
    input is encoded once, by the caller, and crosses the layer as one string.
    """
    return {"type": CALL, "reply": reply, "skill": skill, "params": params, "body": body, "timeout": timeout}


def result(ok, output):
    """Return the outcome of a call for its caller."""
    return {"type": RESULT, "ok": ok, "output": output if ok else None}


def chunk(delta):
    """Return one streamed delta for a caller."""
    return {"type": CHUNK, "delta": delta}
