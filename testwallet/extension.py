"""
The test wallet's BYOA extension: ``window.byoa`` in a Playwright page (the stub is
``frontend/testwallet/byoa.js``), with the test playing the visitor (the consent window, the
pause) and the models (every call's output), and a log of what the page asked and received.
``await byoa_extension.install(page)`` before ``goto``; the ``byoa_extension`` fixture is a fresh
:class:`ByoaExtension` per test, and raises :class:`ScriptError` at teardown if a scripted answer
was unusable. Its log's records, its answers and its scripts' paths are ``_byoa_log``,
``_byoa_answers`` and ``_byoa_scripts``. The rules the stub enforces: docs/reference/stand-in-rules.md.
"""

import asyncio
import inspect
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from testwallet._byoa_answers import (
    AnswerFunction,
    CallAnswer,
    Failed,
    Output,
    RequestAnswer,
    check_output,
)
from testwallet._byoa_log import CallRecord, RequestRecord
from testwallet._byoa_scripts import (
    checks_path,
    clip_path,
    consent_path,
    rules_path,
    script_path,
    script_paths,
    skills_path,
)
from testwallet._call_checks import SKILLS
from testwallet._consents import Consents
from testwallet._driver import (
    DEFAULT_TIMEOUT,
    Consent,
    ScriptError,
    check_target,
    frame_origin,
    pulse,
    refuse_test_kind,
    wait_until,
    wallet_fixture,
)

if TYPE_CHECKING:
    import pytest
    from playwright.async_api import BrowserContext, Page

__all__ = [
    "BINDING",
    "FAILED",
    "ByoaExtension",
    "CallRecord",
    "Consent",
    "RequestRecord",
    "ScriptError",
    "byoa_extension",
    "checks_path",
    "clip_path",
    "consent_path",
    "rules_path",
    "script_path",
    "script_paths",
    "skills_path",
]

#: The Playwright binding through which byoa.js asks the test.
BINDING = "__testwalletByoa"

#: The skills the stand-in serves (specs/byoa-sites.md), as the table declares them.
WALLET_SKILLS = tuple(SKILLS)

#: A scripted output that makes the call fail (the page gets ``{ok: false}``).
FAILED = Failed()


class ByoaExtension:
    """The visitor and the models behind one test's ``window.byoa``.

    The visitor's answer is standing (the last of ``allow``, ``decline``, ``no_answer``, ``block``
    ... wins; by default it allows both skills with one text model). A call of a skill is answered
    by its queued outputs (``reply``) first, then its function (``answer_with``), then the stub's
    labelled default. ``requests``, ``calls`` and ``releases`` log what the page did, across pages.
    """

    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self.calls: list[CallRecord] = []
        self.releases: list[object] = []
        self.problems: list[str] = []
        self._consent = Consent.ALLOW
        self._ticked_skills: list[str] | None = None
        self._ticked_models: int | None = None
        self._expires_in: float | None = None
        self._tick_decide_on_my_own = False
        self._decides_on_its_own = False
        self._blocked = False
        self._wallet_running = True
        self._skills: tuple[str, ...] = WALLET_SKILLS
        self._text_models = 1
        self._outputs: defaultdict[object, deque[Output]] = defaultdict(deque)
        self._functions: dict[object, AnswerFunction] = {}
        self._failing: set[object] = set()
        self._failing_all = False
        self._pending: dict[tuple[int, object], RequestRecord | CallRecord] = {}
        self._pulse = asyncio.Event()
        self._installed: list[object] = []
        #: What the visitor allowed each site and paused; give it to a ``DirectWallet`` to share it.
        self.consents = Consents()

    # -- installing ------------------------------------------------------------

    async def install(self, target: "Page | BrowserContext") -> None:
        """Give a Playwright page or browser context ``window.byoa``, before its scripts run."""
        check_target(target, sync=False)
        if any(target is done for done in self._installed):
            return
        for name, callback in self.bindings().items():
            await target.expose_binding(name, callback)
        for path in self.init_scripts():
            await target.add_init_script(path=path)
        self._installed.append(target)

    def bindings(self) -> dict[str, Callable[..., Awaitable[object]]]:
        """Return the Playwright bindings the page calls, by name (what ``install`` exposes)."""
        return {BINDING: self._on_message}

    def init_scripts(self) -> list[Path]:
        """Return the paths of the scripts ``install`` adds to every document, in order."""
        return script_paths()

    # -- the visitor -------------------------------------------------------------

    def allow(
        self,
        *,
        skills: Iterable[str] | None = None,
        models: int | None = None,
        expires_in: float | None = None,
        decide_on_my_own: bool = False,
    ) -> None:
        """Answer the consent window with Allow, ticking `skills` (None: all) and `models` text models."""
        self._consent = Consent.ALLOW
        self._ticked_skills = None if skills is None else list(skills)
        self._ticked_models = models
        self._expires_in = expires_in
        self._tick_decide_on_my_own = decide_on_my_own

    def decline(self) -> None:
        """Answer the consent window with Decline."""
        self._consent = Consent.DECLINE

    @property
    def consent(self) -> Consent:
        """What the visitor does in the consent window, a Consent (as ``aiwallet.consent``)."""
        return self._consent

    @consent.setter
    def consent(self, choice: Consent | str) -> None:
        self._consent = Consent(choice)  # ValueError for a word that is not a Consent

    def no_answer(self) -> None:
        """Leave the consent window open: the page gets null when 120 s have passed on its clock."""
        self._consent = Consent.WAIT

    def block(self, blocked: bool = True) -> None:
        """Block the site (or unblock it): every request gets null, with no window."""
        self._blocked = blocked

    def no_wallet(self, running: bool = False) -> None:
        """Act as the extension with no wallet running (or with one again): requests get null, calls fail."""
        self._wallet_running = running

    def have(self, *, skills: Iterable[str] = WALLET_SKILLS, text_models: int = 1) -> None:
        """Set what the visitor's wallet can run: these skills, with this many text models."""
        skills = tuple(skills)
        unknown = set(skills) - set(WALLET_SKILLS)
        if unknown:
            raise ValueError(
                f"the wallet 0.1 serves {', '.join(WALLET_SKILLS)}; got {', '.join(sorted(unknown))}"
            )
        self._skills = skills
        self._text_models = text_models

    def no_fitting_model(self) -> None:
        """Leave the wallet with no model at all: a request for any required skill gets null."""
        self.have(skills=(), text_models=0)

    def pause(self, origin: str) -> None:
        """Pause the site at ``origin`` as the visitor does: requests get null, calls ``{ok: false}``."""
        self.consents.pause(origin)

    def resume(self, origin: str) -> None:
        """Resume the site at ``origin``."""
        self.consents.resume(origin)

    def decide_on_my_own(self, on: bool = True) -> None:
        """Let the wallet decide on its own for the site: requests are granted with no window and no click."""
        self._decides_on_its_own = on

    # -- the models ----------------------------------------------------------------

    def reply(self, skill: str, *outputs: Output) -> None:
        """Queue outputs for the next calls of `skill`; :data:`FAILED` makes one call fail."""
        for output in outputs:
            check_output(skill, output)
        self._outputs[skill].extend(outputs)

    def answer_with(self, skill: str, function: AnswerFunction | None) -> None:
        """Answer calls of `skill` with ``function(call)`` (after any queued outputs); None removes it."""
        if function is None:
            self._functions.pop(skill, None)
        else:
            self._functions[skill] = function

    def fail_calls(self, skill: str | None = None, failing: bool = True) -> None:
        """Make every later call of `skill` (of any skill when None) fail, or stop doing so."""
        if skill is None:
            self._failing_all = failing
            if not failing:
                self._failing.clear()
        elif failing:
            self._failing.add(skill)
        else:
            self._failing.discard(skill)

    # -- the log -------------------------------------------------------------------

    def calls_of(self, skill: str) -> list[CallRecord]:
        """Return the logged calls of one skill."""
        return [call for call in self.calls if call.skill == skill]

    async def wait_until(self, predicate: Callable[[Self], object], timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``predicate(extension)`` is true, such as ``lambda ext: len(ext.calls) == 2``."""
        what = f"{predicate.__qualname__} did not become true"
        await wait_until(lambda: predicate(self), lambda: self._pulse, timeout, what)

    def check(self) -> None:
        """Raise ScriptError if a scripted answer could not be used during the test."""
        if self.problems:
            raise ScriptError("the test wallet could not use a scripted answer:\n" + "\n".join(self.problems))

    # -- the binding -------------------------------------------------------------

    async def _on_message(
        self, source: dict[str, Any], message: dict[str, Any]
    ) -> RequestAnswer | CallAnswer | None:
        """Called by byoa.js for each request, call, report and release."""
        try:
            return await self._dispatch(frame_origin(source["frame"]), source["frame"], message)
        except Exception as error:
            self.problems.append(f"{type(error).__name__}: {error}")
            raise
        finally:
            pulse(self)

    async def _dispatch(
        self, origin: str, frame: object, message: dict[str, Any]
    ) -> RequestAnswer | CallAnswer | None:
        kind = message.get("type")
        key = (id(frame), message.get("ref"))
        if kind == "request":
            record = RequestRecord(
                origin=origin,
                activated=message["activated"],
                manifest=message["manifest"],
                valid=message["valid"],
                errors=message["validation"]["errors"],
                warnings=message["validation"]["warnings"],
            )
            self.requests.append(record)
            pulse(self)
            self._pending[key] = record
            answer = self._answer_request(record)
            record.decision, record.on_its_own = answer["decision"], answer.get("onItsOwn", False)
            return answer
        if kind == "request-done":
            done = self._pending.pop(key, None)
            if isinstance(done, RequestRecord):
                request = done
            else:
                request = RequestRecord("", False, None, False, [], [])
            request.grant, request.reason, request.done = message["grant"], message["reason"], True
            if isinstance(request.grant, dict) and isinstance(request.manifest, dict):
                on_its_own = request.on_its_own or self._decides_on_its_own
                self.consents.allow(origin, request.manifest, request.grant["skills"], on_its_own=on_its_own)
            return None
        if kind == "call":
            call = CallRecord(
                origin=origin,
                grant_id=message.get("grantId"),
                skill=message.get("skill"),
                summary=message.get("summary"),
                params=message.get("params"),
                input=message.get("input"),
                refused=message.get("refused"),
            )
            self.calls.append(call)
            pulse(self)
            if call.refused:
                call.ok, call.done = False, True
                return None
            self._pending[key] = call
            return await self._answer_call(call)
        if kind == "call-done":
            ended = self._pending.pop(key, None)
            call = ended if isinstance(ended, CallRecord) else CallRecord("", None, None, None, None)
            call.ok, call.done = message["ok"], True
            if not call.ok:
                call.output = None
            return None
        if kind == "release":
            self.releases.append(message.get("grantId"))
            return None
        raise ValueError(f"byoa.js sent an unknown message type {kind!r}")

    def _answer_request(self, record: RequestRecord) -> RequestAnswer:
        if not self._wallet_running:
            return {"decision": "no-wallet"}
        if self._blocked:
            return {"decision": "block"}
        if not record.valid:
            return {"decision": "quiet"}  # the wallet shows nothing for a manifest it rejects
        if record.origin in self.consents.paused:
            return {"decision": "block"}  # a paused site gets what a blocked one gets: null, no window
        assert isinstance(record.manifest, dict)  # a valid manifest is an object
        record.more = self.consents.more(record.origin, record.manifest)
        allowed = self.consents.sites.get(record.origin)
        # "a site allowed one way is allowed the other way too": "decide on my own", ticked either
        # way, grants with no window while the site asks for nothing more.
        if self._decides_on_its_own or (allowed is not None and allowed.on_its_own and record.more == []):
            return self._allowed(on_its_own=True)
        if not record.activated:
            return {"decision": "quiet"}  # no click: the wallet shows nothing
        if self._consent is Consent.ALLOW:
            if self._tick_decide_on_my_own:
                self._decides_on_its_own = True
            return self._allowed(on_its_own=False)
        # byoa.js's words: closing the window is a decline, leaving it open is no answer.
        return {"decision": "no-answer" if self._consent is Consent.WAIT else "decline"}

    def _allowed(self, *, on_its_own: bool) -> RequestAnswer:
        answer: RequestAnswer = {
            "decision": "allow",
            "onItsOwn": on_its_own,
            "skills": self._ticked_skills,
            "models": self._ticked_models,
            "available": {"skills": list(self._skills), "textModels": self._text_models},
        }
        if self._expires_in is not None:
            answer["expiresInSeconds"] = self._expires_in
        return answer

    async def _answer_call(self, call: CallRecord) -> CallAnswer:
        if not self._wallet_running or self._failing_all or call.skill in self._failing:
            return {"ok": False}
        if call.origin in self.consents.paused:
            return {"ok": False}
        queue = self._outputs.get(call.skill)
        output: Output
        if queue:
            output = queue.popleft()
        elif call.skill in self._functions:
            answered = self._functions[call.skill](call)
            output = await answered if inspect.isawaitable(answered) else answered
            check_output(call.skill, output)
        else:
            return {"default": True}
        if isinstance(output, Failed):  # FAILED, the only one
            return {"ok": False}
        if "output" in output:
            call.output = output["output"]
            answer: CallAnswer = {"ok": True, "output": output["output"]}
            if "receipt" in output:
                answer["receipt"] = output["receipt"]
            return answer
        call.output = output
        return {"ok": True, "output": output}


@wallet_fixture
async def byoa_extension(request: "pytest.FixtureRequest") -> AsyncIterator[ByoaExtension]:
    """Return the visitor and models behind ``window.byoa``; ``await byoa_extension.install(page)`` first."""
    refuse_test_kind(request, "byoa_extension", sync=False)
    extension = ByoaExtension()
    yield extension
    extension.check()
