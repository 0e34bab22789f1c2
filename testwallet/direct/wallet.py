"""
The headless wallet's side of the direct link: consent, hello, the welcome's check, answering
calls through the rule book and the gate, the visitor's controls (grant, pause, resume), ping,
and coming back. ``activity`` (and ``report``, e.g. ``print``) gets a short line for each step
and call, never a session code, a pairing token or call content.
"""

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import bringyourownagent
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as _connect

from byoa.wire import protocol

# byoa.exceptions.NotJSON from its Django-free home (byoa.wire.protocol raises it but does not export it).
from byoa.wire._errors import NotJSON
from testwallet import _call_checks as call_checks
from testwallet._consents import Consents, more_asked, page_origin
from testwallet.direct import link_checks
from testwallet.direct.backends import SkillBackend
from testwallet.direct.exceptions import LinkRefused

logger = logging.getLogger(__name__)
# websockets logs every frame at DEBUG, and the frames carry the session code
# and the pairing token: its connections log here, never below INFO.
frame_logger = logging.getLogger("testwallet.direct.frames")
frame_logger.setLevel(logging.INFO)

RECENT_CODE_SECONDS = 600
WALLET_PARALLEL_CALLS = 8  # the wallet 0.1's default (specs/byoa-sites.md)
RECONNECT_DELAYS = (1, 2, 5, 10)
RECONNECT_EVERY = 30


class Consent(str, enum.Enum):  # noqa: UP042 (StrEnum would change str(), which prints Consent.ALLOW)
    ALLOW = "allow"  # connect for this link; forget the pairing when it ends
    DECLINE = "decline"  # contact nothing: a decline looks like no wallet
    DECIDE_ON_MY_OWN = "decide-on-my-own"  # allow, keep the pairing, come back after a drop


class State(str, enum.Enum):  # noqa: UP042 (StrEnum would change str(), which prints State.IDLE)
    IDLE = "idle"  # no link handled yet
    CONNECTED = "connected"  # welcomed; answering calls
    AWAY = "away"  # the connection dropped; coming back (decide on my own)
    PAUSED = "paused"  # the visitor paused the site: no connection, and no coming back until resumed
    CLOSED = "closed"  # done: bye, refused, declined or dropped for good


def reconnect_delays() -> Iterator[float]:
    """Yield the seconds to wait before each attempt to come back: 1, 2, 5, 10, then 30 forever."""
    yield from RECONNECT_DELAYS
    while True:
        yield RECONNECT_EVERY


class _NoRedirects(_connect):
    # The wallet connects to the address it checked: never where a 3xx points.
    def process_redirect(self, exc: Exception) -> Exception:
        return exc


class DirectWallet:
    """A wallet that takes bringyourownagent:// links and serves one site per link."""

    def __init__(
        self,
        backend: SkillBackend,
        *,
        consent: Consent | str = Consent.ALLOW,
        name: str = "Headless wallet",
        version: str = "0.1",
        budget: str = "1.00 USD",
        grant_seconds: float = 3600,
        limits: Mapping[str, Any] | None = None,
        models: list[str] | None = None,
        ping_seconds: float = 30,
        dev_local: bool | None = None,
        delays: Callable[[], Iterator[float]] = reconnect_delays,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        open_timeout: float = 10.0,
        report: Callable[[str], object] | None = None,
        consents: Consents | None = None,
    ) -> None:
        self.backend = backend
        self.consent = Consent(consent)
        self.identity = {"name": name, "version": version}
        self.budget = budget
        self.grant_seconds = grant_seconds
        self.extra_limits = dict(limits or {})
        self.chosen_models = models
        self.ping_seconds = ping_seconds
        self.dev_local = link_checks.dev_local_from_env() if dev_local is None else dev_local
        self.delays = delays
        self.sleep = sleep
        self.open_timeout = open_timeout
        self.report = report
        self.state = State.IDLE
        self.activity: list[str] = []
        self.pairing: str | None = None  # kept only with "decide on my own"
        self.blocked: set[str] = set()  # sites this wallet forgot: their endpoints' origins (site_of)
        #: What the visitor allowed each site and paused: give the extension's to share it.
        self.consents = Consents() if consents is None else consents
        #: Each consent window the visitor was shown: the site, and what it listed (all of a first
        #: manifest; only what a site asks for more than it was allowed, after that).
        self.consent_windows: list[dict[str, Any]] = []
        self.endpoint = ""  # the wallet route of the link being served ("" before the first)
        self._unpaused = asyncio.Event()
        self._unpaused.set()
        self._served = asyncio.Event()  # set when a connection's frames have ended
        self.welcomed = asyncio.Event()
        self.closed = asyncio.Event()
        self.answered = 0
        #: What the last open() answered, as the direct_wallet fixture records it.
        self.opened = False
        self._recent_codes: dict[str, float] = {}
        self._link_slots = asyncio.Semaphore(4)  # at most 4 links handled at once
        self._ws: ClientConnection | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._stopping = False
        self._gate_state: dict[str, Any] = {"spent": None, "callTimes": []}
        self._answering = 0  # calls being answered now, against the grant's maxParallelCalls

    # -- taking a link ---------------------------------------------------------

    async def open(self, link: str) -> bool:
        """Check a link, ask for consent, connect and say hello; return True when welcomed."""
        async with self._link_slots:
            try:
                checked = link_checks.check_link(link, dev_local=self.dev_local)
            except LinkRefused as exc:
                return self._note(f"link refused ({exc.check}): {exc}")  # the reason, then what to change
            if self._seen_recently(checked.session):
                return self._note(
                    "link ignored: its code was seen in the last 10 minutes; ask the page for a new link"
                )
            if site_of(checked.endpoint) in self.blocked:
                return self._note(
                    "link ignored: the site is blocked (a welcome carried another manifest); a new wallet forgets it"
                )
            site = page_origin(checked.endpoint)
            more = self._show_consent(site, checked.manifest)
            allowed = self.consents.sites.get(site)
            # "a site allowed one way is allowed the other way too": "decide on my own", ticked
            # either way, takes the link with no window while the site asks for nothing more.
            on_its_own = self.consent is Consent.DECIDE_ON_MY_OWN or (
                allowed is not None and allowed.on_its_own and more == []
            )
            if self.consent is Consent.DECLINE and not on_its_own:
                return self._note("declined")  # the visitor's choice, and nothing is contacted
            grant = self._grant_for(checked.manifest)
            if grant is None:
                return self._note(
                    "no Allow: a required skill or model is not available; give the wallet a backend for it "
                    "(--script SKILL=JSON, --openai-url with --model CODE=NAME, or --transcriber)"
                )
            self.endpoint, self.manifest_text = checked.endpoint, checked.manifest_text
            self.manifest = checked.manifest
            self.grant = grant
            self.consents.allow(site, checked.manifest, grant["skills"], on_its_own=on_its_own)
            return await self._connect(session=checked.session, pairing=None)

    def _show_consent(self, site: str, manifest: dict[str, Any]) -> list[str] | None:
        """Record the consent window a link opens: everything (None), or only what is more than was allowed.

        "a site that asks for more later gets a new consent showing only the difference" (byoa-sites.md).
        """
        more = self.consents.more(site, manifest)
        self.consent_windows.append({"site": site, "asks": sorted(manifest["skills"]), "more": more})
        if more is not None:
            self._note(
                f"consent for more: {'; '.join(more)}" if more else "consent: nothing more than allowed"
            )
        return more

    def _seen_recently(self, code: str) -> bool:
        now = time.monotonic()
        self._recent_codes = {c: t for c, t in self._recent_codes.items() if now - t < RECENT_CODE_SECONDS}
        seen = code in self._recent_codes
        self._recent_codes[code] = now
        return seen

    def _grant_for(self, manifest: dict[str, Any]) -> dict[str, Any] | None:
        """Return the grant the visitor gives this manifest, or None when it cannot be served."""
        served = self.backend.skills()
        skills = []
        for skill, entry in manifest["skills"].items():
            if skill in served:
                skills.append(skill)
            elif entry.get("required"):
                return None
        if not skills:
            return None
        limits = dict(manifest["purpose"].get("limits") or {})
        asked = limits.get("maxParallelCalls", WALLET_PARALLEL_CALLS)
        limits["maxParallelCalls"] = min(asked, WALLET_PARALLEL_CALLS)
        limits.update(self.extra_limits)
        expires = datetime.now(UTC) + timedelta(seconds=self.grant_seconds)
        grant: dict[str, Any] = {
            "skills": sorted(skills),
            "expiresAt": expires.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "limits": limits,
        }
        text = manifest["skills"].get("text.generate", {}) if "text.generate" in skills else {}
        block = text.get("models")
        if isinstance(block, dict):
            offered = list(self.chosen_models or self.backend.model_codes())
            count = block.get("count", 1)
            if block.get("need") == "required" and len(offered) < count:
                return None
            grant["models"] = offered[:count]
        return grant

    # -- the connection ----------------------------------------------------------

    async def _connect(self, *, session: str | None, pairing: str | None) -> bool:
        """Open the socket, say hello, check the welcome; start serving. Return True when welcomed."""
        parts = urlsplit(self.endpoint)
        port = parts.port or (443 if parts.scheme == "wss" else 80)
        assert parts.hostname is not None  # check_link refuses an endpoint without a host
        try:
            address = await link_checks.resolve_public(parts.hostname, port, dev_local=self.dev_local)
            ws = await _NoRedirects(
                self.endpoint,
                host=address,
                port=port,
                proxy=None,
                max_size=protocol.MAX_FRAME_BYTES,
                open_timeout=self.open_timeout,
                compression=None,
                logger=frame_logger,
            )
        except (OSError, LinkRefused, websockets.InvalidHandshake, TimeoutError) as exc:
            return self._note(
                f"could not connect ({type(exc).__name__}): check that the site is running and serves "
                f"its wallet route at {self.endpoint}"
            )
        try:
            await ws.send(protocol.dump(protocol.hello(session, pairing, self.identity, self.grant)))
            message = await asyncio.wait_for(ws.recv(), self.open_timeout)
            # Frames are text: a binary one is no welcome (as _serve skips binary frames).
            first = protocol.parse(message) if isinstance(message, str) else None
        except (websockets.ConnectionClosed, TimeoutError, NotJSON):
            await ws.close()
            return self._note(f"no welcome: check that {self.endpoint} is the site's BYOA wallet route")
        token = first.get("pairing") if first else None
        if not first or first.get("type") != "welcome" or not isinstance(token, str):
            await ws.close()
            if first and first.get("type") == "error":
                self.pairing = None
            return self._note(
                "refused by the site: its code was used or expired (single use, 120 s) or the pairing was "
                "revoked; ask the page for a new link"
            )
        if not self._accept_manifest(first.get("manifest"), resumed=pairing is not None):
            await ws.send(protocol.dump(protocol.bye()))
            await ws.close()
            self.pairing = None
            if pairing is not None:
                # "if that asks for more than was allowed, the wallet says bye and you need a new
                # link" (byoa-sites.md): the pairing is gone, the site is not blocked.
                return self._note(
                    "bye: the site's manifest asks for more than was allowed; a new link asks anew"
                )
            # "if it differs, the wallet says bye and revokes your site" (byoa-sites.md).
            self.blocked.add(site_of(self.endpoint))
            return self._note("bye: the welcome's manifest is not the one allowed; site forgotten")
        self._ws = ws
        self._served.clear()
        self.pairing = token if self.consent is Consent.DECIDE_ON_MY_OWN else None
        self.state = State.CONNECTED
        self.welcomed.set()
        self._note(f"connected to {self.endpoint} (skills: {', '.join(self.grant['skills'])})")
        self._spawn(self._serve(ws))
        self._spawn(self._ping(ws))
        return True

    def _accept_manifest(self, text: object, *, resumed: bool) -> bool:
        if text == self.manifest_text:
            return True
        if not resumed or not isinstance(text, str):
            return False  # after a link: byte for byte, or nothing
        # Coming back, the welcome carries the site's current manifest: fine
        # unless it asks for more than the visitor allowed.
        try:
            _text, manifest = link_checks.check_manifest(text)
        except LinkRefused:
            return False
        if more_asked(manifest, self.manifest, self.grant["skills"]):
            return False
        self.manifest_text, self.manifest = text, manifest
        return True

    async def _serve(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                if isinstance(message, bytes):
                    continue
                try:
                    frame = protocol.parse(message)
                except NotJSON:
                    continue
                if not frame:
                    continue
                kind = frame.get("type")
                if kind == "call":
                    self._spawn(self._answer(ws, frame))
                elif kind == "bye":
                    self._stopping = True
                    self._note("the site said bye")
                    await ws.close()
        except websockets.ConnectionClosed:
            pass
        self._ws = None
        self._served.set()
        if self._stopping or self.consent is not Consent.DECIDE_ON_MY_OWN or not self.pairing:
            self._finish()
            return
        self.welcomed.clear()
        if not self._unpaused.is_set():
            # "A site the visitor paused is not reconnected" (byoa-sites.md): until resume().
            self.state = State.PAUSED
            await self._unpaused.wait()
            if await self._connect(session=None, pairing=self.pairing):  # close() cancels this wait
                return
        self.state = State.AWAY
        self._note("connection dropped; coming back")
        await self._come_back()

    async def _come_back(self) -> None:
        for delay in self.delays():
            await self.sleep(delay)
            if not self._unpaused.is_set():
                self.state = State.PAUSED
                await self._unpaused.wait()
            if self._stopping or not self.pairing:
                break
            if await self._connect(session=None, pairing=self.pairing):
                return
            if not self.pairing:
                break  # the site refused the pairing: a new link is needed
        self._finish()

    def _finish(self) -> None:
        if self.state in (State.CONNECTED, State.AWAY, State.PAUSED):
            self._say(f"stopped after {self.answered} answered call{'' if self.answered == 1 else 's'}")
        self.state = State.CLOSED
        self.closed.set()

    async def _ping(self, ws: ClientConnection) -> None:
        try:
            while True:
                await self.sleep(self.ping_seconds)
                await ws.send(protocol.dump(protocol.ping()))
        except websockets.ConnectionClosed:
            pass

    # -- calls -----------------------------------------------------------------

    async def _answer(self, ws: ClientConnection, frame: protocol.Frame) -> None:
        call_id = frame.get("id")
        started = time.monotonic()
        if self._answering >= self.grant["limits"]["maxParallelCalls"]:
            # The hello announced this cap: a server that sends more gets a "no", not more work.
            reply = protocol.result(call_id, False)
        else:
            self._answering += 1
            try:
                reply = await self._run_call(ws, frame)
            except Exception as exc:  # a backend failure is a "no" for this call, never a crash
                logger.debug("call failed: %s", type(exc).__name__)
                reply = protocol.result(call_id, False)
            finally:
                self._answering -= 1
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(protocol.dump(reply))
        # The skill is the site's word: named only when it is one the visitor granted.
        skill = frame.get("skill") if frame.get("skill") in self.grant["skills"] else "a skill not granted"
        outcome = "ok" if reply.get("ok") else "not ok"
        self._say(f"answered {skill}: {outcome} in {time.monotonic() - started:.2f} s")

    async def _run_call(self, ws: ClientConnection, frame: protocol.Frame) -> protocol.ResultFrame:
        call_id, skill = frame.get("id"), frame.get("skill")
        input, params = frame.get("input"), frame.get("params") or {}
        if (
            not isinstance(skill, str)
            or not isinstance(input, dict)
            or not isinstance(params, dict)
            or skill not in self.grant["skills"]
            or page_origin(self.endpoint) in self.consents.paused
        ):
            return protocol.result(call_id, False)
        # The rule book the in-page stand-in reads too (testwallet/_call_checks.py): the skill's own
        # limits, the manifest's languages and limits, the input's shape and mime type.
        checked = call_checks.check_call(skill, input, params, self.manifest, self.grant.get("models", []))
        if isinstance(checked, call_checks.Refused):
            self._note(f"call refused ({checked.code})")
            return protocol.result(call_id, False)
        params = checked.params
        audio = checked.summary.get("audio") or {}
        measured = {
            "clipSeconds": audio.get("clipSeconds", 0),
            "textChars": checked.summary.get("textChars", 0),
        }
        cost = self.backend.estimated_cost(skill, input, params)
        call = self._gate_call(skill, input, params, cost, measured)
        gate = bringyourownagent.check_call(self.manifest, self._gate_grant(), call, self._gate_state)
        if gate["decision"] not in ("allowed", "warn"):
            return protocol.result(call_id, False)  # "ask" has nobody to ask here
        self._count_call(cost)
        limits = self.grant["limits"]
        if isinstance(limits.get("maxAnswerTokens"), int):
            cap = limits["maxAnswerTokens"]
            params = {**params, "maxTokens": min(params.get("maxTokens") or cap, cap)}
        if params.get("stream") is True:
            work = self._stream(ws, call_id, skill, input, params)
        else:
            work = self.backend.run(skill, input, params)
        output = await asyncio.wait_for(work, limits.get("maxCallSeconds"))
        self.answered += 1
        receipt = {"cost": cost, "provider": self.backend.receipt_provider}
        return protocol.result(call_id, True, output, receipt)

    async def _stream(
        self, ws: ClientConnection, call_id: Any, skill: str, input: dict[str, Any], params: dict[str, Any]
    ) -> dict[str, Any]:
        pieces = []
        async for delta in self.backend.stream(skill, input, params):
            pieces.append(delta)
            await ws.send(protocol.dump(protocol.chunk(call_id, delta)))
        return {"text": "".join(pieces)}

    def _gate_grant(self) -> dict[str, Any]:
        known = {k: v for k, v in self.grant["limits"].items() if k in bringyourownagent.KNOWN_LIMITS}
        return {
            "byoa": "0.1-draft",
            "skills": self.grant["skills"],
            "budget": {"perSession": self.budget},
            "expiresAt": self.grant["expiresAt"],
            "limits": known,
        }

    def _gate_call(
        self, skill: str, input: dict[str, Any], params: dict[str, Any], cost: str, measured: dict[str, float]
    ) -> dict[str, Any]:
        return {
            "skill": skill,
            "at": _rfc3339(datetime.now(UTC)),
            "provider": self.backend.provider_kind,
            "estimatedCost": cost,
            "input": measured,
            "params": params,
        }

    def _count_call(self, cost: str) -> None:
        amount, currency = cost.split()
        spent = self._gate_state["spent"]
        total = Decimal(amount) + (Decimal(spent.split()[0]) if spent else Decimal(0))
        now = datetime.now(UTC)
        minute_ago = now - timedelta(minutes=1)
        recent = [t for t in self._gate_state["callTimes"] if datetime.fromisoformat(t) > minute_ago]
        recent.append(_rfc3339(now))
        self._gate_state = {"spent": f"{total} {currency}", "callTimes": recent}

    # -- the visitor's controls ---------------------------------------------------

    async def pause(self) -> None:
        """Pause the site, as the visitor does in the wallet: bye, and no coming back until resume()."""
        self._unpaused.clear()
        if self.endpoint:
            self.consents.pause(page_origin(self.endpoint))
        self._note("paused by the visitor")
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(protocol.dump(protocol.bye()))
            await ws.close()
            await self._served.wait()  # the state is PAUSED (or CLOSED) when this returns

    def resume(self) -> None:
        """Resume a paused site: the wallet comes back at once with the pairing it kept."""
        self._unpaused.set()
        if self.endpoint:
            self.consents.resume(page_origin(self.endpoint))
        kept = self.pairing is not None
        self._note(
            "resumed by the visitor" + ("" if kept else "; no pairing kept, so the site needs a new link")
        )

    async def change_grant(
        self,
        *,
        skills: list[str] | None = None,
        models: list[str] | None = None,
        limits: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Change what the visitor allows the site and tell it in a ``grant`` frame; return the grant.

        ``skills`` and ``models`` replace the ticked ones (each among what the manifest asked and
        the wallet has); ``limits`` are set on top of the grant's. "a grant frame tells a change"
        (byoa-sites.md). Calls from then on are checked against the new grant.
        """
        grant = getattr(self, "grant", None)
        if grant is None:
            raise RuntimeError("change_grant() changes the grant of an open link: open() one first")
        changed = {**grant, "limits": {**grant["limits"], **(limits or {})}}
        if skills is not None:
            asked = set(self.manifest["skills"]) & set(self.backend.skills())
            if not skills or not set(skills) <= asked:
                raise ValueError(f"skills: choose one or more of {', '.join(sorted(asked))}; got {skills}")
            changed["skills"] = sorted(skills)
        if models is not None:
            offered = list(self.chosen_models or self.backend.model_codes())
            if not set(models) <= set(offered):
                raise ValueError(f"models: choose among {', '.join(offered)}; got {models}")
            changed["models"] = list(models)
        self.grant = changed
        site = page_origin(self.endpoint)
        allowed = self.consents.sites.get(site)
        on_its_own = allowed.on_its_own if allowed else False
        self.consents.allow(
            site, self.manifest, changed["skills"], on_its_own=on_its_own
        )  # what is ticked now
        self._note(f"grant changed (skills: {', '.join(changed['skills'])})")
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(protocol.dump(protocol.grant_change(changed)))
        return changed

    # -- the rest ----------------------------------------------------------------

    async def close(self) -> None:
        """Say bye and stop; no coming back."""
        self._stopping = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(protocol.dump(protocol.bye()))
            await ws.close()
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._finish()

    async def drop(self) -> None:
        """Close the socket without a bye, as a crash or a lost network would (for tests)."""
        ws = self._ws
        if ws is not None:
            ws.transport.abort()

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _note(self, text: str) -> bool:
        """Record what happened (never a code, a token or call content); return False."""
        self.activity.append(text)
        logger.info("wallet: %s", text)
        self._say(text)
        return False

    def _say(self, line: str) -> None:
        """Give ``report`` one line (never a code, a token or call content); a failing report changes nothing."""
        if self.report is not None:
            try:
                self.report(line)
            except Exception:  # the wallet's work never depends on who listens
                logger.debug("report failed", exc_info=True)


def site_of(endpoint: str) -> str:
    """Return the site an endpoint belongs to: its scheme, host and port, not its path.

    A site's links name one wallet route with a different last segment per
    browser (the route id of byoa.pairing.route_ids): a site forgotten on one link stays
    forgotten on the next.
    """
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{parts.port or ''}"


def _rfc3339(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
