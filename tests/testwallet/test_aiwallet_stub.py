"""
The test wallet's ``window.aiwallet`` against specs/wallet-provider.md, in Debian's Chromium:
discovery, connecting, link notices, the log, and @aiconnect/core against it (how it answers a
chat: test_aiwallet_answers.py).

Each test drives the in-page provider with ``page.evaluate`` and the wallet behind it with the
``aiwallet`` fixture, on the home page of the real server.
"""

import asyncio

import pytest

from tests.served import static_url
from tests.testwallet.aiwallet_cases import (
    ASK_BOTH,
    ECHO_LINK,
    LISTEN,
    QUESTION,
    START,
    TIMEOUT_MS,
    ask,
    notices,
    refused,
    settled,
)
from testwallet.aiwallet import AiWalletStub, ScriptError, ToolCall

pytestmark = [pytest.mark.browser, pytest.mark.live]


# -- Discovery -----------------------------------------------------------------------------------


async def test_provider_is_defined_before_the_page_scripts_run(site):
    await site.locator("html[data-wallets-checked=true]").wait_for(timeout=TIMEOUT_MS)
    assert await site.locator('[data-wallet="aiwallet"] .status').text_content() == "found"


PAGE = "<!doctype html><html><head><title>site</title></head><body><p>A site</p></body></html>"


@pytest.mark.parametrize(
    ("url", "present"),
    [
        ("https://visitor-site.test/", True),
        ("http://localhost:8123/", True),
        ("http://127.0.0.1:8123/", True),
        ("http://visitor-site.test/", False),
        ("http://127.0.0.2:8123/", False),
        ("http://localhost.visitor-site.test/", False),
        ("http://[::1]:8123/", False),
    ],
)
async def test_provider_exists_only_on_https_and_http_localhost_or_127_0_0_1(aiwallet, page, url, present):
    """wallet-provider.md: "AI Wallet runs on pages served over HTTPS, and on `http://localhost` and
    `http://127.0.0.1` at any port"; on any other plain-http page `window.aiwallet` is absent."""
    await aiwallet.install(page)
    await page.add_init_script("addEventListener('aiwallet:announce', () => { window.__announced = true; });")
    await page.route(url + "**", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    await page.goto(url)
    found = await page.evaluate(
        "() => { dispatchEvent(new Event('aiwallet:request'));"
        " return { defined: 'aiwallet' in window, announced: window.__announced === true }; }"
    )
    assert found == {"defined": present, "announced": present}


async def test_provider_announces_itself_when_it_is_defined(aiwallet, page, daphne_server):
    await page.add_init_script(
        "window.addEventListener('aiwallet:announce', (event) => { window.announced = event.detail; });"
    )
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/")
    assert await page.evaluate("window.announced === window.aiwallet && window.announced.isAIWallet === true")


async def test_script_loaded_after_the_announce_finds_the_wallet_through_aiwallet_request(site):
    found = await site.evaluate(
        """() => {
          const announced = [];
          window.addEventListener('aiwallet:announce', (event) => announced.push(event.detail));
          window.dispatchEvent(new Event('aiwallet:request'));
          window.dispatchEvent(new Event('aiwallet:request'));
          return { count: announced.length, same: announced.every((detail) => detail === window.aiwallet) };
        }"""
    )
    assert found == {"count": 2, "same": True}


async def test_provider_is_frozen_and_cannot_be_replaced(site):
    checks = await site.evaluate(
        """() => {
          const wallet = window.aiwallet;
          const descriptor = Object.getOwnPropertyDescriptor(window, 'aiwallet');
          window.aiwallet = { isAIWallet: true, name: 'Impostor' };
          let redefined = true;
          try { Object.defineProperty(window, 'aiwallet', { value: {} }); } catch { redefined = false; }
          const original = wallet.request;
          wallet.request = () => null;
          let strictThrows = false;
          try {
            (function () { 'use strict'; window.aiwallet = {}; })();
          } catch (error) {
            strictThrows = error instanceof TypeError;
          }
          return {
            writable: descriptor.writable, configurable: descriptor.configurable, frozen: Object.isFrozen(wallet),
            same: window.aiwallet === wallet, redefined, patched: wallet.request !== original, strictThrows,
            deleted: delete window.aiwallet,
            keys: Object.keys(wallet).sort(), isAIWallet: wallet.isAIWallet, name: wallet.name,
          };
        }"""
    )
    assert checks == {
        "writable": False,
        "configurable": False,
        "frozen": True,
        "same": True,
        "redefined": False,
        "patched": False,
        "strictThrows": True,
        "deleted": False,
        "keys": ["isAIWallet", "name", "onLink", "request"],
        "isAIWallet": True,
        "name": "Test wallet",
    }


async def test_provider_is_defined_in_the_top_frame_only(site):
    # A same-origin document that may be framed (the site's own pages refuse to be).
    await site.route("**/framed", lambda route: route.fulfill(body="<p>framed</p>", content_type="text/html"))
    await site.evaluate(
        """() => new Promise((resolve) => {
          const frame = document.createElement('iframe');
          frame.src = '/framed';
          frame.onload = resolve;
          document.body.append(frame);
        })"""
    )
    assert await site.evaluate("'aiwallet' in document.querySelector('iframe').contentWindow") is False


async def test_origin_comes_from_the_calling_frame_not_from_what_the_page_sends(
    aiwallet, site, daphne_server
):
    aiwallet.approve_site("https://bank.example")
    # A script of the page calls the binding itself and names another site as its origin.
    forged = """() => window.__testwalletAiwallet({
      op: 'request', page: 'forged', origin: 'https://bank.example', id: 'forged-1', method: 'status',
    }).then(() => window.__testwalletAiwallet({ op: 'next', id: 'forged-1' }))"""
    event = await settled(site.evaluate(forged))
    assert aiwallet.requests[-1].origin == daphne_server.url
    assert event == {"kind": "result", "result": {"connected": False}}


# -- status, connect, disconnect -----------------------------------------------------------------


async def test_status_of_a_site_not_yet_approved_is_disconnected_without_asking(aiwallet, site):
    assert await ask(site, "status") == {"result": {"connected": False}, "events": [{"kind": "settled"}]}
    assert aiwallet.approval_windows == []


async def test_connect_asks_the_visitor_once_then_status_is_connected(aiwallet, site):
    link = {"connected": True, "providerName": "Test wallet", "model": "echo-1"}
    assert (await ask(site, "connect"))["result"] == link
    assert (await ask(site, "connect"))["result"] == link
    assert (await ask(site, "status"))["result"] == link
    assert len(aiwallet.approval_windows) == 1


async def test_approval_window_shows_the_host_and_the_account_and_waits_for_the_visitor(
    aiwallet, site, daphne_server
):
    aiwallet.add_account("Claude", "claude-haiku-5-5")
    aiwallet.set_default_account("Claude")
    aiwallet.approval = "wait"
    await site.evaluate(START, ["connect", None])
    window = await aiwallet.approval_window()
    assert window.host == daphne_server.url.removeprefix("http://")
    assert window.account == "Claude"
    window.approve()
    asked = await settled(site.evaluate("window.asked"))
    assert asked["result"] == {"connected": True, "providerName": "Claude", "model": "claude-haiku-5-5"}


@pytest.mark.parametrize("visitor", ["decline", "close"])
async def test_connect_declined_or_closed_rejects_403(aiwallet, site, visitor):
    aiwallet.approval = visitor
    asked = await ask(site, "connect")
    assert asked["error"] == refused(403, "The connection was declined")
    assert (await ask(site, "status"))["result"] == {"connected": False}


async def test_approve_stays_disabled_until_the_wallet_holds_an_account(aiwallet, site):
    aiwallet.remove_account("Test wallet")
    aiwallet.approval = "wait"
    await site.evaluate(START, ["connect", None])
    window = await aiwallet.approval_window()
    assert window.account is None
    with pytest.raises(ScriptError, match="add_account"):
        window.approve()
    aiwallet.add_account("ChatGPT", "gpt-6-luna")
    window.approve()
    assert (await settled(site.evaluate("window.asked")))["result"] == {
        "connected": True,
        "providerName": "ChatGPT",
        "model": "gpt-6-luna",
    }


@pytest.mark.parametrize("method", ["connect", "chat"])
async def test_wallet_not_set_up_rejects_403(aiwallet, site, method):
    aiwallet.set_up = False
    asked = await ask(site, method, QUESTION)
    assert asked["error"]["status"] == 403
    assert asked["error"]["message"] == "AI Wallet is not set up yet. Open it from the browser toolbar."


async def test_locked_wallet_reports_disconnected_and_closing_the_unlock_window_rejects_403(
    aiwallet, connected
):
    aiwallet.lock()
    assert (await ask(connected, "status"))["result"] == {"connected": False}
    aiwallet.unlocking = "close"
    for method in ("connect", "chat"):
        asked = await ask(connected, method, QUESTION)
        assert asked["error"] == refused(403, "AI Wallet is locked. Unlock it to continue.")


async def test_requests_that_meet_the_lock_share_one_unlock_window_and_go_on_once_unlocked(
    aiwallet, connected
):
    aiwallet.lock()
    aiwallet.unlocking = "wait"
    await connected.evaluate(ASK_BOTH)
    window = await aiwallet.unlock_window()
    await aiwallet.wait_until(lambda wallet: len(window.requests) == 2)  # both wait on the one window
    window.unlock()
    link, chat = await settled(connected.evaluate("window.both"))
    assert link["result"]["connected"] is True
    assert chat["result"]["message"]["content"] == "Echo: hi"
    assert len(aiwallet.unlock_windows) == 1


async def test_closing_the_unlock_window_rejects_every_request_waiting_on_it(aiwallet, connected):
    aiwallet.lock()
    aiwallet.unlocking = "wait"
    await connected.evaluate(ASK_BOTH)
    window = await aiwallet.unlock_window()
    await aiwallet.wait_until(lambda wallet: len(window.requests) == 2)
    window.close()
    answers = await settled(connected.evaluate("window.both"))
    assert [answer["error"]["message"] for answer in answers] == [
        "AI Wallet is locked. Unlock it to continue."
    ] * 2
    assert aiwallet.locked is True


async def test_disconnect_removes_the_site_and_on_a_locked_wallet_rejects_403(aiwallet, connected):
    aiwallet.lock()
    asked = await ask(connected, "disconnect")
    assert asked["error"] == refused(403, "The wallet is locked")
    aiwallet.unlock()
    assert (await ask(connected, "disconnect"))["result"] == {"connected": False}
    assert (await ask(connected, "status"))["result"] == {"connected": False}
    aiwallet.approval = "decline"
    assert (await ask(connected, "connect"))["error"]["status"] == 403  # the next connect asks again


# -- Link notices --------------------------------------------------------------------------------


async def test_switching_account_or_model_sends_the_site_a_link_notice(aiwallet, connected):
    await connected.evaluate(LISTEN)
    aiwallet.add_account("Claude", "claude-haiku-5-5")
    aiwallet.switch("Claude")
    aiwallet.switch(model="claude-opus-5")
    links = await notices(connected, 3)
    assert links == [
        {"connected": True, "providerName": "Test wallet", "model": "echo-1"},  # the vault changed: a repeat
        {"connected": True, "providerName": "Claude", "model": "claude-haiku-5-5"},
        {"connected": True, "providerName": "Claude", "model": "claude-opus-5"},
    ]
    asked = await ask(connected, "chat", QUESTION)
    assert asked["events"][0] == {"kind": "start", "providerName": "Claude", "model": "claude-opus-5"}


async def test_site_switched_off_gets_a_last_notice_in_each_of_its_pages(aiwallet, context, daphne_server):
    await aiwallet.install(context)
    aiwallet.approve_site(daphne_server.url)
    pages = [await context.new_page(), await context.new_page()]
    for page in pages:
        await page.goto(daphne_server.url + "/")
        await page.evaluate(LISTEN)
    aiwallet.switch_off()
    for page in pages:
        assert await notices(page, 1) == [{"connected": False}]
    assert (await ask(pages[0], "status"))["result"] == {"connected": False}


async def test_disconnect_notifies_every_page_of_the_origin(aiwallet, context, daphne_server):
    await aiwallet.install(context)
    aiwallet.approve_site(daphne_server.url)
    first, second = await context.new_page(), await context.new_page()
    for page in (first, second):
        await page.goto(daphne_server.url + "/")
        await page.evaluate(LISTEN)
    await ask(first, "disconnect")
    assert await notices(second, 1) == [{"connected": False}]
    assert await notices(first, 1) == [{"connected": False}]


async def test_unlock_notifies_approved_sites_and_lock_sends_nothing(aiwallet, connected):
    await connected.evaluate(LISTEN)
    sent = len(aiwallet.notices)
    aiwallet.lock()
    assert (await ask(connected, "status"))["result"] == {"connected": False}
    assert len(aiwallet.notices) == sent
    aiwallet.unlock()
    assert await notices(connected, 1) == [
        {"connected": True, "providerName": "Test wallet", "model": "echo-1"}
    ]


async def test_on_link_returns_a_function_that_removes_the_listener(aiwallet, connected):
    await connected.evaluate(
        """() => {
          window.links = []; window.removed = [];
          window.aiwallet.onLink((link) => window.links.push(link));
          const remove = window.aiwallet.onLink((link) => window.removed.push(link));
          remove();
        }"""
    )
    aiwallet.switch(model="echo-2")
    await notices(connected, 1)
    assert await connected.evaluate("window.removed") == []


# -- The log -------------------------------------------------------------------------------------


async def test_request_log_holds_each_method_params_and_origin(aiwallet, connected, daphne_server):
    await ask(connected, "status")
    await ask(connected, "chat", {**QUESTION, "options": {"temperature": 0.2}})
    assert [(r.method, r.params, r.origin) for r in aiwallet.requests] == [
        ("status", None, daphne_server.url),
        ("chat", {**QUESTION, "options": {"temperature": 0.2}}, daphne_server.url),
    ]
    assert aiwallet.chats[-1].options == {"temperature": 0.2}


# -- Without the binding -------------------------------------------------------------------------


async def test_stub_alone_asks_in_its_panel_and_echoes_as_a_test_wallet(page, daphne_server):
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.type))
    for path in AiWalletStub().init_scripts():
        await page.add_init_script(path=path)
    await page.goto(daphne_server.url + "/")
    panel = page.get_by_role("dialog", name="Test wallet")
    declining = asyncio.ensure_future(ask(page, "connect"))
    await panel.wait_for(timeout=5000)
    assert "It echoes your messages back. It is not an AI." in await panel.text_content()
    await panel.get_by_role("button", name="Decline").click()
    assert (await declining)["error"]["message"] == "The connection was declined"
    assert (await ask(page, "chat", QUESTION))["error"]["status"] == 401
    approving = asyncio.ensure_future(ask(page, "connect"))
    await panel.get_by_role("button", name="Approve").click()
    assert (await approving)["result"] == ECHO_LINK
    assert dialogs == []
    asked = await ask(page, "chat", QUESTION)
    assert asked["events"][0] == {"kind": "start", "providerName": "Test wallet", "model": "echo-1"}
    assert asked["result"]["message"]["content"] == "Echo: A calm book for tonight"
    assert (await ask(page, "nothing"))["error"]["status"] == 404
    assert (await ask(page, "disconnect"))["result"] == {"connected": False}
    assert (await ask(page, "status"))["result"] == {"connected": False}


# -- @aiconnect/core against the stub ------------------------------------------------------------


async def test_aiconnect_connects_chats_runs_tools_and_follows_notices_through_the_stub(
    aiwallet, site, daphne_server
):
    aiwallet.add_account("Claude", "claude-haiku-5-5")
    aiwallet.set_default_account("Claude")
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm"})])
    aiwallet.reply(["Piranesi ", "suits a calm evening."])
    await settled(
        site.evaluate(
            """async (library) => {
          const { AiConnect, runConversation } = await import(library);
          const client = new AiConnect();
          window.client = client;
          window.states = [];
          client.subscribe((state) => window.states.push(state.status));
          await client.connect();
          const { state } = client;
          window.ran = [];
          window.text = '';
          const searchBooks = { name: 'search_books', description: 'Find books.', inputSchema: { type: 'object' } };
          const tools = {
            listTools: async () => [searchBooks],
            callTool: async (name, args) => { window.ran.push([name, args]); return '[{"title":"Piranesi"}]'; },
          };
          const added = await runConversation({
            session: state.session, tools,
            messages: [{ role: 'user', content: 'A calm book for tonight' }],
            onText: (delta) => { window.text += delta; },
          });
          window.added = added.map((message) => message.role);
        }""",
            static_url(daphne_server, "aiconnect/index.js"),
        )
    )
    assert await site.evaluate("window.states") == ["disconnected", "connecting", "connected"]
    assert await site.evaluate("window.ran") == [["search_books", {"mood": "calm"}]]
    assert await site.evaluate("window.text") == "Piranesi suits a calm evening."
    assert await site.evaluate("window.added") == ["assistant", "tool", "assistant"]
    first, second = aiwallet.chats
    assert second.messages[-1]["toolCallId"] == second.messages[-2]["toolCalls"][0]["id"]
    assert first.tools[0]["name"] == "search_books"
    # A notice from the wallet moves the client's state; a refusal reaches it with its status.
    aiwallet.switch("Test wallet")
    await site.wait_for_function("() => client.state.providerName === 'Test wallet'", timeout=TIMEOUT_MS)
    aiwallet.fail(429, "Plan spent")
    answer = await settled(
        site.evaluate(
            """() => client.state.session.chat({ messages: [{ role: 'user', content: 'hi' }] })
          .catch((error) => ({ name: error.name, status: error.status, message: error.message }))"""
        )
    )
    assert answer == refused(429, "Test wallet answered 429: Plan spent")
