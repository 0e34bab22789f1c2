"""
The headless wallet: taking a link (its checks, the consent, the grant), hello and the welcome's
check, the frames of the connection, ping, coming back, and the visitor's controls (grant, pause,
resume). Calls are answered by ``calls``. ``activity`` (and ``report``, e.g. ``print``) gets a
short line for each step and call, never a session code, a pairing token or call content.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from byoa.wire import protocol

# byoa.exceptions.NotJSON from its Django-free home (byoa.wire.protocol raises it but does not export it).
from byoa.wire._errors import NotJSON
from testwallet._consents import Consents, more_asked, page_origin
from testwallet.direct import grant as grants
from testwallet.direct import link_checks
from testwallet.direct.backends import SkillBackend
from testwallet.direct.calls import CallAnswerer
from testwallet.direct.connection import open_socket
from testwallet.direct.exceptions import LinkRefused
from testwallet.direct.states import Consent, State, reconnect_delays

logger = logging.getLogger(__name__)
RECENT_CODE_SECONDS = 600


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
        self.blocked: set[str] = set()  # sites this wallet forgot (link_checks.site_of)
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
        #: What the last open() answered, as the direct_wallet fixture records it.
        self.opened = False
        self._recent_codes: dict[str, float] = {}
        self._link_slots = asyncio.Semaphore(4)  # at most 4 links handled at once
        self._ws: ClientConnection | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._stopping = False
        self._calls = CallAnswerer(self, self._note, self._say)

    @property
    def answered(self) -> int:
        """Return how many calls this wallet answered ``ok``."""
        return self._calls.answered

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
            if link_checks.site_of(checked.endpoint) in self.blocked:
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
            grant = grants.grant_for(
                checked.manifest, self.backend, self.chosen_models, self.extra_limits, self.grant_seconds
            )
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

    # -- the connection ----------------------------------------------------------

    async def _connect(self, *, session: str | None, pairing: str | None) -> bool:
        """Open the socket, say hello, check the welcome; start serving. Return True when welcomed."""
        try:
            ws = await open_socket(self.endpoint, dev_local=self.dev_local, open_timeout=self.open_timeout)
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
            self.blocked.add(link_checks.site_of(self.endpoint))
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
                    self._spawn(self._calls.answer(ws, frame))
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
        changed = grants.changed_grant(
            grant,
            self.manifest,
            self.backend,
            self.chosen_models,
            skills=skills,
            models=models,
            limits=limits,
        )
        self.grant = changed
        site = page_origin(self.endpoint)
        allowed = self.consents.sites.get(site)
        on_its_own = allowed.on_its_own if allowed else False
        # What is ticked now:
        self.consents.allow(site, self.manifest, changed["skills"], on_its_own=on_its_own)
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
