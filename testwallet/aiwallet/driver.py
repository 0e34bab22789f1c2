"""The wallet behind the in-page provider: it answers each request of the page as the test scripted."""

import asyncio
import inspect
import itertools
import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from testwallet._driver import (
    DEFAULT_TIMEOUT,
    Consent,
    ScriptError,
    check_target,
    frame_origin,
    refuse_test_kind,
    origin_of,
    pulse,
    stub_path,
    wait_until,
    wallet_fixture,
)
from testwallet.aiwallet.records import (
    AUTO,
    DECLINED,
    LOCKED,
    LOCKED_DISCONNECT,
    NO_ACCOUNT,
    NO_MESSAGES,
    NOT_CONNECTED,
    NOT_SET_UP,
    SCRIPT_FAILED,
    STOPPED,
    UPDATED,
    Account,
    Chat,
    ProviderError,
    ProviderUnreachable,
    Reply,
    Request,
)
from testwallet.aiwallet.windows import ApprovalWindow, UnlockWindow

#: The Playwright binding the page calls (frontend/testwallet/aiwallet.js).
BINDING = "__testwalletAiwallet"


def script_path():
    """Return the path of the in-page provider script, ``frontend/testwallet/aiwallet.js``."""
    return stub_path("aiwallet.js")


# -- The wallet -----------------------------------------------------------------------------------


class _Interrupted(Exception):
    """Raised inside an answer when the page aborted it or the test ended."""


@dataclass(eq=False)
class _Page:
    id: str
    origin: str
    frame: Any
    notices: asyncio.Queue = field(default_factory=asyncio.Queue)

    def is_open(self):
        page = getattr(self.frame, "page", None)
        closed = page is not None and page.is_closed()
        return not closed and not self.frame.is_detached()


@dataclass(eq=False)
class _Answering:
    """A request being answered: its log entry, its events as the page pulls them, and its interruptions."""

    log: Request
    events: Any = None
    chat: Chat | None = None
    cancelled: bool = False
    stop_pressed: bool = False
    pulling: bool = False
    pulse: asyncio.Event = field(default_factory=asyncio.Event)


class _Choice:
    """An attribute that holds one of a fixed set of answers, refusing a misspelt one at once."""

    def __init__(self, choices, doc, kind=str):
        self.choices, self.__doc__, self.kind = choices, doc, kind

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        return self if instance is None else instance.__dict__[self.name]

    def __set__(self, instance, choice):
        try:
            value = self.kind(choice)
        except ValueError:
            value = None
        if value not in self.choices:
            raise ValueError(f"{self.name} is one of {', '.join(map(str, self.choices))}; got {choice!r}.") from None
        instance.__dict__[self.name] = value


class AiWalletStub:
    """The wallet behind the test wallet's ``window.aiwallet``: see the module's documentation."""

    __test__ = False  # a helper, not a test class

    #: What the visitor may do in each window.
    APPROVAL_CHOICES = tuple(Consent)
    UNLOCK_CHOICES = ("unlock", "close", "wait")
    consent = _Choice(APPROVAL_CHOICES, "What the visitor does in the next approval windows (a Consent).", Consent)
    unlocking = _Choice(UNLOCK_CHOICES, "What the visitor does in the next unlock window.")

    @property
    def approval(self):
        """The same as ``consent``: the approval window is AI Wallet's consent window."""
        return self.consent

    @approval.setter
    def approval(self, choice):
        self.consent = choice

    def __init__(self, accounts=None):
        """Hold ``accounts`` (Account list; default: 'Test wallet' on 'echo-1'), unlocked, no site approved."""
        self.accounts = [Account(a.name, a.model) for a in accounts] if accounts else [Account("Test wallet", "echo-1")]
        self.default_account = self.accounts[0].name if self.accounts else None
        self.auto_order = None
        self.set_up = True
        self.locked = False
        self.updated = False
        self.consent = Consent.ALLOW
        self.unlocking = "unlock"
        self.model = None
        self.requests: list[Request] = []
        self.chats: list[Chat] = []
        self.notices: list[tuple[str, dict]] = []
        self.approval_windows: list[ApprovalWindow] = []
        self.unlock_windows: list[UnlockWindow] = []
        self._sites = {}  # origin -> {"account": name or AUTO, "model": name or None}
        self._queue = deque()
        self._pages = {}
        self._answering = {}
        self._cancelled_early = set()
        self._unlock_window = None
        self._tool_call_ids = itertools.count(1)
        self._script_errors = []
        self._pulse = asyncio.Event()
        self._installed = []

    # -- Installing -------------------------------------------------------------------------------

    async def install(self, target):
        """
        Define ``window.aiwallet`` in ``target`` (a Playwright Page or BrowserContext) before its scripts
        run, in every document it loads from now on (a page already loaded gets it at its next load).
        """
        check_target(target, sync=False)
        if any(target is done for done in self._installed):
            return
        for name, callback in self.bindings().items():
            await target.expose_binding(name, callback)
        for path in self.init_scripts():
            await target.add_init_script(path=path)
        self._installed.append(target)

    def bindings(self):
        """Return the Playwright bindings the page calls, by name (what ``install`` exposes)."""
        return {BINDING: self._on_call}

    def init_scripts(self):
        """Return the paths of the scripts ``install`` adds to every document, in order."""
        return [script_path()]

    async def aclose(self):
        """End every pending wait of the pages: the test is over."""
        for answering in list(self._answering.values()):
            answering.cancelled = True
            pulse(answering)
            if not answering.pulling:
                await answering.events.aclose()
        self._answering.clear()
        for page in self._pages.values():
            page.notices.put_nowait(None)
        self._pages.clear()
        await asyncio.sleep(0)

    def check(self):
        """Raise the first error the test's script caused (a ScriptError, or the model function's), and forget them."""
        errors, self._script_errors = self._script_errors, []
        if errors:
            raise errors[0]

    # -- The visitor's windows --------------------------------------------------------------------

    async def approval_window(self, timeout=DEFAULT_TIMEOUT):
        """Wait for an approval window that is open, and return it (the oldest first)."""
        await wait_until(self._open_approval, lambda: self._pulse, timeout, "No approval window opened")
        return self._open_approval()

    async def unlock_window(self, timeout=DEFAULT_TIMEOUT):
        """Wait until the unlock window is open, and return it."""
        await wait_until(lambda: self._unlock_window, lambda: self._pulse, timeout, "No unlock window opened")
        return self._unlock_window

    async def wait_until(self, predicate, timeout=DEFAULT_TIMEOUT):
        """Wait until ``predicate(wallet)`` is true, such as ``lambda w: len(w.requests) == 2``."""
        await wait_until(lambda: predicate(self), lambda: self._pulse, timeout, f"{predicate.__qualname__} did not become true")

    def _open_approval(self):
        return next((w for w in self.approval_windows if w.decision is None), None)

    # -- The wallet's state -----------------------------------------------------------------------

    def lock(self):
        """Lock the wallet. Pages get no notice ("The wallet sends nothing when it locks")."""
        self.locked = True

    def unlock(self):
        """Unlock the wallet: requests waiting in the unlock window go on, and approved sites get a notice."""
        self.locked = False
        if self._unlock_window is not None:
            self._unlock_window.decision = "unlock"
            self._unlock_window = None
        self._vault_changed()

    def mark_updated(self):
        """The extension was updated: from now on every request is answered 410 at once."""
        self.updated = True

    def add_account(self, name, model):
        """Connect an AI account; the first one becomes the default."""
        if self._find_account(name) is not None or name == AUTO:
            raise ScriptError(f"An account named {name!r} exists already.")
        self.accounts.append(Account(name, model))
        self.default_account = self.default_account or name
        self._vault_changed()
        for window in self.approval_windows:
            if window.decision is None and window.account is None:  # its Approve button comes alive
                window.account = self.default_account
                if self.consent is Consent.ALLOW:
                    window.approve()

    def remove_account(self, name):
        """Remove an account. Sites that answered with it keep it, and their chats get 403."""
        self.accounts.remove(self._account(name))
        if self.default_account == name:
            self.default_account = self.accounts[0].name if self.accounts else None
        self._vault_changed()

    def set_default_account(self, name):
        """Make ``name`` the account that answers the sites approved from now on."""
        self.default_account = self._account(name).name
        self._vault_changed()

    def approve_site(self, url, account=None, model=None):
        """Approve the origin of ``url`` as if the visitor had, with ``account`` (default: the default one)."""
        account = account or self.default_account
        if account is None:
            raise ScriptError("The wallet holds no account: add_account() first.")
        self._check_account(account)
        self._sites[origin_of(url)] = {"account": account, "model": model}
        self._vault_changed()

    def switch(self, account=None, model=None, origin=None):
        """Pick another account (or AUTO) and/or model for a site; its pages get a link notice."""
        if account is not None:
            self._check_account(account)
        for site_origin in self._approved(origin):
            site = self._sites[site_origin]
            if account is not None:
                site["account"], site["model"] = account, None
            if model is not None:
                site["model"] = model
        self._vault_changed()

    def switch_off(self, origin=None):
        """Remove a site, as the visitor does in the wallet; its pages get ``{connected: false}``."""
        for site_origin in self._approved(origin):
            del self._sites[site_origin]
            self._notify(site_origin, {"connected": False})
        self._vault_changed()

    def is_approved(self, url):
        """Return whether the origin of ``url`` is approved."""
        return origin_of(url) in self._sites

    def link(self, origin):
        """Return the WalletLink of ``origin``, as ``status`` answers it."""
        site = self._sites.get(origin)
        if not self.set_up or self.locked or site is None:
            return {"connected": False}
        if site["account"] == AUTO:
            return {"connected": True, "providerName": AUTO}
        account = self._find_account(site["account"])
        model = site["model"] or (account.model if account else None)
        return {"connected": True, "providerName": site["account"], **({"model": model} if model else {})}

    # -- The model --------------------------------------------------------------------------------

    def reply(self, text="", *, tool_calls=(), finish_reason=None, model=None, usage=True, hold_after=None,
              fail_after=None):
        """Queue the model's next answer and return it (a Reply you may wait on when it holds)."""
        answer = Reply(text, list(tool_calls), finish_reason, model, usage, hold_after, fail_after)
        self._queue.append(answer)
        return answer

    def fail(self, status, detail):
        """Queue a provider refusal: the page gets ``<account> answered <status>: <detail>``."""
        self._queue.append(ProviderError(status, detail))

    def fail_network(self, reason):
        """Queue a network failure between the wallet and the provider: the page gets 502 and ``reason``."""
        self._queue.append(ProviderUnreachable(reason))

    def press_stop(self):
        """Press Stop in the wallet's side panel: every running chat ends with 499. Return those chats."""
        stopped = []
        for answering in self._answering.values():
            if answering.chat is not None and answering.chat.outcome is None:
                answering.stop_pressed = True
                stopped.append(answering.chat)
                pulse(answering)
        return stopped

    # -- The binding ------------------------------------------------------------------------------

    async def _on_call(self, source, message):
        """Called by Playwright for each call of the binding from a page."""
        op = message.get("op")
        if op == "hello":
            return self._hello(source["frame"], message["page"])
        if op == "listen":
            page = self._pages.get(message["page"])
            return await page.notices.get() if page is not None else None
        if op == "request":
            return self._open(message, frame_origin(source["frame"]))
        if op == "next":
            return await self._next(message["id"])
        if op == "cancel":
            return await self._cancel(message["id"])
        raise ValueError(f"Unknown op {op!r} from the page script; expected hello, listen, request, next or cancel.")

    def _hello(self, frame, page_id):
        for old_id, old in list(self._pages.items()):
            if old.frame is frame or not old.is_open():  # that document was replaced or closed
                old.notices.put_nowait(None)
                del self._pages[old_id]
        self._pages[page_id] = _Page(page_id, frame_origin(frame), frame)

    def _open(self, message, origin):
        log = Request(message["method"], message.get("params"), origin)
        self.requests.append(log)
        answering = _Answering(log)
        answering.events = self._answer(answering)
        if message["id"] in self._cancelled_early:
            answering.cancelled = True
        self._answering[message["id"]] = answering
        self._changed()

    async def _next(self, request_id):
        answering = self._answering.get(request_id)
        if answering is None:
            return None
        answering.pulling = True
        try:
            event = await anext(answering.events, None)
        except Exception as error:  # a bug of the driver or of the test's model function
            self._script_errors.append(error)
            event = _error(SCRIPT_FAILED, f"The test wallet's script failed: {error}")
        finally:
            answering.pulling = False
        if event is None or event["kind"] in ("result", "error"):
            answering.log.answer = event
            self._answering.pop(request_id, None)
            self._changed()
        return event

    async def _cancel(self, request_id):
        answering = self._answering.get(request_id)
        if answering is None:
            self._cancelled_early.add(request_id)
            return None
        answering.cancelled = True
        pulse(answering)
        if not answering.pulling:  # the answer sits at a yield: close it there
            self._answering.pop(request_id, None)
            await answering.events.aclose()
        return None

    # -- Answering --------------------------------------------------------------------------------

    async def _answer(self, answering):
        """Yield the events that answer one request, producing each when the page asks for it."""
        if answering.cancelled:
            return
        if self.updated:
            yield _error(*UPDATED)
            return
        method = answering.log.method
        handler = {"status": self._status, "connect": self._connect, "disconnect": self._disconnect, "chat": self._chat}
        if method not in handler:
            yield _error(404, f"AI Wallet has no method named {method}")
            return
        try:
            async for event in handler[method](answering):
                yield event
        except _Interrupted:
            return

    async def _status(self, answering):
        yield _result(self.link(answering.log.origin))

    async def _connect(self, answering):
        origin = answering.log.origin
        if not self.set_up:
            yield _error(*NOT_SET_UP)
            return
        if not await self._unlocked(answering):
            yield _error(*LOCKED)
            return
        if origin not in self._sites:
            window = ApprovalWindow(origin, self.default_account, answering.log, self)
            self.approval_windows.append(window)
            self._changed()
            if self.consent is not Consent.WAIT and (self.consent is not Consent.ALLOW or self.accounts):
                window._decide(self.consent)
            try:
                await self._gate(answering, lambda: window.decision is not None)
            except _Interrupted:  # the page withdrew the request: the window goes with it
                window.decision = window.decision or Consent.CLOSE
                raise
            if window.decision is not Consent.ALLOW:
                yield _error(*DECLINED)
                return
            self._sites[origin] = {"account": window.account, "model": None}  # the account it showed
            self._vault_changed()
        yield _result(self.link(origin))

    async def _disconnect(self, answering):
        origin = answering.log.origin
        if self.locked:
            yield _error(*LOCKED_DISCONNECT)
            return
        self._sites.pop(origin, None)
        self._notify(origin, {"connected": False})
        self._vault_changed()
        yield _result({"connected": False})

    async def _chat(self, answering):
        params = answering.log.params if isinstance(answering.log.params, dict) else {}
        messages = params.get("messages")
        if not isinstance(messages, list) or not messages:
            yield _error(*NO_MESSAGES)
            return
        if not self.set_up:
            yield _error(*NOT_SET_UP)
            return
        if not await self._unlocked(answering):
            yield _error(*LOCKED)
            return
        origin = answering.log.origin
        site = self._sites.get(origin)
        if site is None:
            yield _error(*NOT_CONNECTED)
            return
        if site["account"] == AUTO:
            order = self.auto_order or [account.name for account in self.accounts]
            candidates = [(name, None) for name in order if self._find_account(name) is not None]
        elif self._find_account(site["account"]) is not None:
            candidates = [(site["account"], site["model"])]
        else:
            candidates = []
        if not candidates:
            yield _error(*NO_ACCOUNT)
            return

        chat = Chat(messages, params.get("tools"), params.get("options"), origin)
        answering.chat = chat
        self.chats.append(chat)
        try:
            async for event in self._run_model(answering, chat, candidates):
                yield event
        except (GeneratorExit, _Interrupted):  # the page aborted it, or the test ended
            chat._end("cancelled")
            raise
        except Exception:
            chat._end("failed")
            raise

    async def _run_model(self, answering, chat, candidates):
        # "With Auto, the wallet tries its accounts in turn … moves to the next account only while
        # nothing has streamed … an account that failed before it gets no start."
        failure = None
        for name, model in candidates:
            chat.account, chat.model = name, model or self._find_account(name).model
            if self._stop_or_cancel(answering):
                break
            try:
                answer = await self._model_answer(chat)
            except (ProviderError, ProviderUnreachable) as error:
                failure = _failure(name, error)
                continue
            async for event in self._stream(answering, chat, answer):
                yield event
            return
        if self._stop_or_cancel(answering):
            chat._end("stopped")
            yield _error(*STOPPED)
            return
        chat._end("failed")
        yield failure

    def _stop_or_cancel(self, answering):
        if answering.cancelled:
            raise _Interrupted
        return answering.stop_pressed

    async def _model_answer(self, chat):
        """Return the Reply of the next queued answer, the model function or the echo model; raise its failure."""
        if self._queue:
            answer = self._queue.popleft()
        elif self.model is not None:
            answer = self.model(chat)
            if inspect.isawaitable(answer):
                answer = await answer
        else:
            answer = echo_reply(chat.messages)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, str):
            answer = Reply(answer)
        if not isinstance(answer, Reply):
            raise ScriptError(f"The model answered {answer!r}; expected a Reply or a string.")
        return answer

    async def _stream(self, answering, chat, answer):
        tool_calls = self._tool_calls(chat, answer)
        deltas = answer.deltas
        if answer.hold_after is not None and not 0 <= answer.hold_after <= len(deltas):
            raise ScriptError(f"hold_after={answer.hold_after}, but the reply streams {len(deltas)} delta(s).")
        for index in range(len(deltas) + 1):
            if answer.hold_after == index:
                answer._held = True
                pulse(answer)
                await self._gate(answering, lambda: answer._resumed.is_set(), answer._resumed)
            if self._stop_or_cancel(answering):
                chat._end("stopped")
                yield _error(*STOPPED)
                return
            if index == 0:  # "right before the first text, or right before the result"
                yield {"kind": "start", "providerName": chat.account, "model": chat.model}
                if self._stop_or_cancel(answering):
                    chat._end("stopped")
                    yield _error(*STOPPED)
                    return
            if index < len(deltas):
                yield {"kind": "text", "delta": deltas[index]}
        if answer.fail_after is not None:
            # Text has streamed, so the wallet stays with this account ("moves to the next
            # account only while nothing has streamed") and the chat fails.
            chat._end("failed")
            yield _failure(chat.account, answer.fail_after)
            return
        content = "".join(deltas)
        message = {"role": "assistant", "content": content}
        if tool_calls:
            message["toolCalls"] = tool_calls
        result = {
            "message": message,
            "finishReason": answer.finish_reason or ("toolCalls" if tool_calls else "stop"),
            "model": answer.model or chat.model,
        }
        usage = _usage(chat.messages, deltas) if answer.usage is True else answer.usage
        if usage:
            result["usage"] = usage
        chat._end("answered")
        yield _result(result)

    def _tool_calls(self, chat, answer):
        """Return the answer's tool calls with their ids and parsed arguments; check the chat offered them."""
        if not answer.tool_calls:
            return []
        offered = [tool.get("name") for tool in chat.tools or [] if isinstance(tool, dict)]
        calls = []
        for call in answer.tool_calls:
            if not offered:
                raise ScriptError(f"The reply calls {call.name!r}, but this chat offered no tools.")
            if call.name not in offered:
                raise ScriptError(f"The reply calls {call.name!r}; this chat offered {', '.join(offered)}.")
            arguments = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
            if not isinstance(arguments, dict):
                raise ScriptError(f"The arguments of {call.name!r} are {arguments!r}; expected an object.")
            call.id = call.id or f"call_{next(self._tool_call_ids)}"
            calls.append({"id": call.id, "name": call.name, "arguments": arguments})
        return calls

    # -- Waiting ----------------------------------------------------------------------------------

    async def _unlocked(self, answering):
        """Return whether the wallet is unlocked, after the visitor's unlock window when it is locked."""
        if not self.locked:
            return True
        window = self._unlock_window
        if window is None:
            # "Requests from several pages at the same moment share one unlock window."
            window = self._unlock_window = UnlockWindow(self)
            self.unlock_windows.append(window)
            self._changed()
            if self.unlocking == "unlock":
                window.unlock()
            elif self.unlocking == "close":
                window.close()
        window.requests.append(answering.log)
        self._changed()
        await self._gate(answering, lambda: window.decision is not None)
        return window.decision == "unlock"

    async def _gate(self, answering, ready, *events):
        """Wait until ``ready()``; raise _Interrupted when the page aborts the request meanwhile."""
        while not ready():
            if answering.cancelled:
                raise _Interrupted
            if answering.stop_pressed and answering.chat is not None:
                return
            waits = [asyncio.ensure_future(e.wait()) for e in (self._pulse, answering.pulse, *events)]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()
        if answering.cancelled:
            raise _Interrupted

    def _changed(self):
        """Wake every wait: something the test or a page waits on may have changed."""
        pulse(self)

    # -- Link notices -----------------------------------------------------------------------------

    def _vault_changed(self):
        """Send every open page of an approved origin its link ("each time the vault's contents change")."""
        self._changed()
        if self.locked:
            return
        for origin in {page.origin for page in self._pages.values()}:
            if origin in self._sites:
                self._notify(origin, self.link(origin))

    def _notify(self, origin, link):
        self.notices.append((origin, link))
        for page_id, page in list(self._pages.items()):
            if page.origin != origin:
                continue
            if page.is_open():
                page.notices.put_nowait({"kind": "link", "link": dict(link)})
            else:
                del self._pages[page_id]

    # -- Accounts and sites -----------------------------------------------------------------------

    def _find_account(self, name):
        return next((account for account in self.accounts if account.name == name), None)

    def _account(self, name):
        account = self._find_account(name)
        if account is None:
            names = ", ".join(a.name for a in self.accounts) or "none"
            raise ScriptError(f"The wallet has no account named {name!r}; its accounts: {names}.")
        return account

    def _check_account(self, name):
        if name != AUTO:
            self._account(name)

    def _approved(self, origin):
        if origin is not None:
            origin = origin_of(origin)
            if origin not in self._sites:
                raise ScriptError(f"{origin} is not an approved site; approve_site() or connect first.")
            return [origin]
        if not self._sites:
            raise ScriptError("No site is approved yet: approve_site() or connect first.")
        return list(self._sites)


# -- Helpers --------------------------------------------------------------------------------------


def echo_reply(messages):
    """Return the echo model's answer: "Echo: " and the last user message, a word per delta."""
    last = next((m for m in reversed(messages) if isinstance(m, dict) and m.get("role") == "user"), {})
    content = f"Echo: {_text_of(last.get('content'))}"
    return Reply(re.findall(r"\s*\S+\s*", content) or [content])


def _usage(messages, deltas):
    """Count words, as the in-page echo model does: a deterministic stand-in for token counts."""
    words = sum(len(_text_of(m.get("content")).split()) for m in messages if isinstance(m, dict))
    return {"inputTokens": words, "outputTokens": len(deltas), "cachedInputTokens": 0}


def _text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = (part.get("text") for part in content if isinstance(part, dict) and part.get("type") == "text")
        return "".join(text for text in texts if isinstance(text, str))
    return ""


def _result(result):
    return {"kind": "result", "result": result}


def _error(status, message):
    return {"kind": "error", "status": status, "message": message}


def _failure(account, error):
    """Return the error event of a provider failure, worded as the wallet's error table says."""
    if isinstance(error, ProviderUnreachable):
        return _error(502, error.reason)
    return _error(error.status, f"{account} answered {error.status}: {error.detail}")


# -- The fixture ----------------------------------------------------------------------------------


@wallet_fixture
async def aiwallet(request):
    """A test double of AI Wallet: ``await aiwallet.install(page)`` before the page loads."""
    refuse_test_kind(request, "aiwallet", sync=False)
    wallet = AiWalletStub()
    yield wallet
    await wallet.aclose()
    wallet.check()
