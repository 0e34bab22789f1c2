"""
Answering a site's calls on the headless wallet's direct link: the grant's cap on calls at once,
the rule book the in-page stand-in reads too, ``bringyourownagent``'s gate, the backend (whole or
streamed) and the result frame. Each call gives the wallet's report one line, never its content.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import bringyourownagent
import websockets
from websockets.asyncio.client import ClientConnection

from byoa.wire import protocol
from testwallet import _call_checks as call_checks
from testwallet._consents import Consents, page_origin
from testwallet.direct import grant as grants
from testwallet.direct.backends import SkillBackend

logger = logging.getLogger(__name__)


class ServedLink(Protocol):
    """What answering a call reads of the wallet, as it is when the call is answered."""

    @property
    def backend(self) -> SkillBackend: ...
    @property
    def budget(self) -> str: ...
    @property
    def endpoint(self) -> str: ...
    @property
    def manifest(self) -> dict[str, Any]: ...
    @property
    def grant(self) -> dict[str, Any]: ...
    @property
    def consents(self) -> Consents: ...


class CallAnswerer:
    """Answer one wallet's calls; keep what the gate counts and how many were answered."""

    def __init__(self, link: ServedLink, note: Callable[[str], object], say: Callable[[str], object]) -> None:
        self.link = link
        self.note = note  # a line for the activity and the report
        self.say = say  # a line for the report alone
        self.gate_state: dict[str, Any] = {"spent": None, "callTimes": []}
        self.answering = 0  # calls being answered now, against the grant's maxParallelCalls
        self.answered = 0

    async def answer(self, ws: ClientConnection, frame: protocol.Frame) -> None:
        """Answer one ``call`` frame on ``ws``: a result, ``ok: false`` for any refusal or failure."""
        call_id = frame.get("id")
        started = time.monotonic()
        grant = self.link.grant
        if self.answering >= grant["limits"]["maxParallelCalls"]:
            # The hello announced this cap: a server that sends more gets a "no", not more work.
            reply = protocol.result(call_id, False)
        else:
            self.answering += 1
            try:
                reply = await self._run(ws, frame)
            except Exception as exc:  # a backend failure is a "no" for this call, never a crash
                logger.debug("call failed: %s", type(exc).__name__)
                reply = protocol.result(call_id, False)
            finally:
                self.answering -= 1
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(protocol.dump(reply))
        # The skill is the site's word: named only when it is one the visitor granted.
        granted = self.link.grant["skills"]
        skill = frame.get("skill") if frame.get("skill") in granted else "a skill not granted"
        outcome = "ok" if reply.get("ok") else "not ok"
        self.say(f"answered {skill}: {outcome} in {time.monotonic() - started:.2f} s")

    async def _run(self, ws: ClientConnection, frame: protocol.Frame) -> protocol.ResultFrame:
        link = self.link
        call_id, skill = frame.get("id"), frame.get("skill")
        input, params = frame.get("input"), frame.get("params") or {}
        if (
            not isinstance(skill, str)
            or not isinstance(input, dict)
            or not isinstance(params, dict)
            or skill not in link.grant["skills"]
            or page_origin(link.endpoint) in link.consents.paused
        ):
            return protocol.result(call_id, False)
        # The rule book the in-page stand-in reads too (testwallet/_call_checks.py): the skill's own
        # limits, the manifest's languages and limits, the input's shape and mime type.
        checked = call_checks.check_call(skill, input, params, link.manifest, link.grant.get("models", []))
        if isinstance(checked, call_checks.Refused):
            self.note(f"call refused ({checked.code})")
            return protocol.result(call_id, False)
        params = checked.params
        audio = checked.summary.get("audio") or {}
        measured = {
            "clipSeconds": audio.get("clipSeconds", 0),
            "textChars": checked.summary.get("textChars", 0),
        }
        backend = link.backend
        cost = backend.estimated_cost(skill, input, params)
        call = grants.gate_call(skill, backend.provider_kind, cost, measured, params)
        gate = bringyourownagent.check_call(
            link.manifest, grants.gate_grant(link.grant, link.budget), call, self.gate_state
        )
        if gate["decision"] not in ("allowed", "warn"):
            return protocol.result(call_id, False)  # "ask" has nobody to ask here
        self.gate_state = grants.counted(self.gate_state, cost)
        limits = link.grant["limits"]
        if isinstance(limits.get("maxAnswerTokens"), int):
            cap = limits["maxAnswerTokens"]
            params = {**params, "maxTokens": min(params.get("maxTokens") or cap, cap)}
        if params.get("stream") is True:
            work = self._stream(ws, call_id, skill, input, params)
        else:
            work = backend.run(skill, input, params)
        output = await asyncio.wait_for(work, limits.get("maxCallSeconds"))
        self.answered += 1
        receipt = {"cost": cost, "provider": backend.receipt_provider}
        return protocol.result(call_id, True, output, receipt)

    async def _stream(
        self, ws: ClientConnection, call_id: Any, skill: str, input: dict[str, Any], params: dict[str, Any]
    ) -> dict[str, Any]:
        pieces = []
        async for delta in self.link.backend.stream(skill, input, params):
            pieces.append(delta)
            await ws.send(protocol.dump(protocol.chunk(call_id, delta)))
        return {"text": "".join(pieces)}
