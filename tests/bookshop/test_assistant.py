"""
The bookshop's assistant in Chromium with the test wallet: the visitor's AI
answers through AI Wallet and calls the shop's tools over MCP on a real daphne.
"""

import json
from pathlib import Path

import pytest

from testwallet.aiwallet import AUTO, ProviderError, ToolCall

pytestmark = [pytest.mark.browser, pytest.mark.live]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "bookshop"


@pytest.fixture
async def shop(aiwallet, page, daphne_server):
    """The shop page with the test wallet installed, and the console errors it logs."""
    page.console_problems = []
    page.on("console", lambda m: m.type == "error" and page.console_problems.append(m.text))
    page.on("pageerror", lambda e: page.console_problems.append(str(e)))
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    return page


async def widget_state(page, state, timeout=15000):
    await page.locator(f'ai-connect-widget[data-state="{state}"]').wait_for(state="attached", timeout=timeout)
    return (await page.locator("ai-connect-widget").text_content()).strip()


async def connect(page):
    await widget_state(page, "disconnected")
    await page.get_by_role("button", name="Connect your AI").click()
    await widget_state(page, "connected")


async def ask(page, question):
    await page.locator("#question").fill(question)
    await page.get_by_role("button", name="Ask", exact=True).click()


async def answered(page, timeout=15000):
    """Wait until the page is ready for the next question; return the last answer's text."""
    await page.locator("#ask-button:enabled").wait_for(state="attached", timeout=timeout)
    await page.locator("#stop").wait_for(state="hidden", timeout=timeout)
    return await page.locator(".turn.assistant .text").last.text_content()


async def test_the_model_searches_the_shop_and_the_answer_streams_in_with_cards_after_its_steps(
    shop, aiwallet
):
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm", "limit": 3})])
    final = aiwallet.reply(["Three calm ", "books for ", "tonight."], hold_after=0)
    await connect(shop)
    await ask(shop, "A calm book for tonight")
    await final.held(timeout=15)
    # While the model writes its answer, the page says what the tool did and shows the cards.
    assert await shop.locator("#activity").text_content() == "Looking for calm books…"
    # The search is a done step of the answer, and until its first words a typing indicator says it comes.
    step = shop.locator(".turn.assistant ol.tools > li.tool")
    assert [await step.get_attribute("data-state"), await step.text_content()] == [
        "done",
        "Searched: calm books",
    ]
    typing = shop.locator(".turn.assistant .typing")
    assert await typing.is_visible()
    assert await typing.text_content() == "Writing the answer…"
    assert await typing.locator(".typing__dots").get_attribute("aria-hidden") == "true"
    chips = shop.locator("#suggestions button")  # one question at a time: the suggestions wait too
    assert set(await chips.evaluate_all("(all) => all.map((b) => b.getAttribute('aria-disabled'))")) == {
        "true"
    }
    cards = shop.locator(".assistant-cards .title")
    await cards.nth(2).wait_for()
    titles = await cards.all_text_contents()
    final.resume()
    assert await answered(shop) == "Three calm books for tonight."
    assert await typing.count() == 0  # the words took its place
    assert await chips.first.get_attribute("aria-disabled") == "false"
    chat = aiwallet.chats[1]
    tool_message = next(m for m in chat.messages if m["role"] == "tool")
    assert all(f"{title} by" in tool_message["content"] for title in titles)
    assert [m["role"] for m in chat.messages] == ["system", "user", "assistant", "tool"]
    link = shop.locator(".assistant-cards .title").first
    assert (await link.get_attribute("href")).startswith("/bookshop/books/")
    assert shop.console_problems == []


async def test_a_follow_up_question_carries_the_transcript(shop, aiwallet):
    aiwallet.reply("Try Dune.")
    aiwallet.reply("It is about a desert planet.")
    await connect(shop)
    await ask(shop, "Something epic?")
    assert await answered(shop) == "Try Dune."
    await ask(shop, "What is it about?")
    assert await answered(shop) == "It is about a desert planet."
    messages = aiwallet.chats[-1].messages
    assert [(m["role"], m["content"]) for m in messages[1:]] == [
        ("user", "Something epic?"),
        ("assistant", "Try Dune."),
        ("user", "What is it about?"),
    ]


async def test_add_to_basket_on_an_answer_card_fills_this_visitors_basket(shop, aiwallet, daphne_server):
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"query": "Frank Herbert"})])
    aiwallet.reply("Dune it is.")
    await connect(shop)
    await ask(shop, "Herbert?")
    await answered(shop)
    await shop.locator(".assistant-cards button", has_text="Add to basket").click()
    await shop.locator(".assistant-cards button", has_text="In your basket").wait_for()
    # The keyboard's focus stays on the button, and the header counts the book.
    assert await shop.evaluate("() => document.activeElement.textContent.startsWith('In your basket')")
    assert await shop.locator("#basket-count").text_content() == "(1)"
    await shop.goto(daphne_server.url + "/bookshop/basket/")
    assert "Dune" in await shop.locator("#basket").text_content()


async def test_stop_on_the_page_aborts_the_answer_at_once(shop, aiwallet):
    reply = aiwallet.reply(["Once ", "upon ", "a time"], hold_after=1)
    await connect(shop)
    await ask(shop, "Tell me a story")
    await reply.held(timeout=15)
    await shop.get_by_role("button", name="Stop").click()
    await answered(shop)
    chat = aiwallet.chats[-1]
    await chat.ended()
    assert chat.outcome == "cancelled"
    assert await shop.locator(".turn.assistant").last.get_attribute("class") == "turn assistant stopped"
    assert await shop.locator(".turn.assistant .text").last.text_content() == "Once "
    assert "Stopped" in await shop.locator("#assistant-error").text_content()


async def test_stop_in_the_wallet_shows_that_the_visitor_stopped_it(shop, aiwallet):
    reply = aiwallet.reply(["Once ", "upon"], hold_after=1)
    await connect(shop)
    await ask(shop, "Tell me a story")
    await reply.held(timeout=15)
    aiwallet.press_stop()
    await answered(shop)
    error = shop.locator("#assistant-error")
    assert await error.text_content() == "You stopped the answer in AI Wallet."
    assert await error.get_attribute("data-status") == "499"


@pytest.mark.parametrize(
    "arrange, status, words",
    [
        (lambda w: w.fail(429, "Your plan is spent"), "429", "reached a limit"),
        (lambda w: w.fail(503, "Overloaded"), "503", "could not answer"),
        (lambda w: w.fail_network("Could not reach api.example"), "502", "could not reach your AI provider"),
        (lambda w: w.mark_updated(), "410", "Reload this page"),
        (lambda w: w.remove_account("Test wallet"), "403", "no AI account connected"),
    ],
    ids=["429", "503", "502", "410", "403-no-account"],
)
async def test_each_wallet_error_shows_its_message_for_the_visitor(shop, aiwallet, arrange, status, words):
    await connect(shop)
    arrange(aiwallet)
    await ask(shop, "Anything")
    await answered(shop)
    error = shop.locator("#assistant-error")
    await error.wait_for()
    assert await error.get_attribute("data-status") == status
    assert words in await error.text_content()


async def test_a_provider_failing_mid_answer_keeps_the_text_and_shows_the_error(shop, aiwallet):
    aiwallet.reply(["Try ", "Dune"], fail_after=ProviderError(503, "Overloaded"))
    await connect(shop)
    await ask(shop, "Anything")
    assert await answered(shop) == "Try Dune"
    assert await shop.locator(".turn.assistant").last.get_attribute("class") == "turn assistant failed"
    error = shop.locator("#assistant-error")
    assert await error.get_attribute("data-status") == "503"
    assert "Overloaded" in await error.text_content()


async def test_a_locked_wallet_that_stays_locked_says_to_unlock(shop, aiwallet):
    await connect(shop)
    aiwallet.lock()
    aiwallet.unlocking = "close"
    await ask(shop, "Anything")
    await answered(shop)
    assert "Unlock it" in await shop.locator("#assistant-error").text_content()


async def test_a_site_switched_off_mid_answer_gets_401_and_says_connect_again(shop, aiwallet):
    first = aiwallet.reply(tool_calls=[ToolCall("list_moods", {})], hold_after=0)
    await connect(shop)
    await ask(shop, "Which moods?")
    await first.held(timeout=15)
    aiwallet.switch_off()
    await widget_state(shop, "disconnected")
    first.resume()
    await answered(shop)
    error = shop.locator("#assistant-error")
    assert await error.get_attribute("data-status") == "401"
    assert "Connect again" in await error.text_content()


async def test_a_decline_shows_the_error_state_and_own_mode_still_works(shop, aiwallet):
    aiwallet.approval = "decline"
    await widget_state(shop, "disconnected")
    await shop.get_by_role("button", name="Connect your AI").click()
    assert "The connection was declined" in await widget_state(shop, "error")
    assert await shop.get_by_role("button", name="Try again").is_visible()
    assert await shop.locator("#ask").is_hidden()
    await shop.locator("input[name=q]").fill("Tolkien")
    await shop.get_by_role("button", name="Search").click()
    await shop.locator("#search-results .title", has_text="The Hobbit").wait_for()


async def test_a_link_notice_updates_the_widget_without_a_reload(shop, aiwallet):
    aiwallet.add_account("Claude", "claude-haiku-4-5")
    await connect(shop)
    aiwallet.switch(account="Claude")
    await shop.locator("ai-connect-widget", has_text="Answered by Claude (claude-haiku-4-5)").wait_for()
    aiwallet.switch_off()
    await widget_state(shop, "disconnected")


async def test_with_auto_the_widget_and_answer_name_the_account_that_answered(shop, aiwallet):
    aiwallet.add_account("Claude", "claude-haiku-4-5")
    aiwallet.set_default_account("Claude")
    await connect(shop)
    aiwallet.switch(account=AUTO)
    await shop.locator("ai-connect-widget", has_text="Answered by Auto").wait_for()
    aiwallet.reply("Piranesi.")
    await ask(shop, "One book")
    await answered(shop)
    who = await shop.locator(".turn.assistant .who").last.text_content()
    assert who == f"Your model: {aiwallet.chats[-1].model} ({aiwallet.chats[-1].account})"


async def test_model_markup_and_remote_images_stay_inert_text(shop, aiwallet, daphne_server):
    remote_requests, dialogs = [], []
    shop.on("request", lambda r: "evil.example" in r.url and remote_requests.append(r.url))
    shop.on("dialog", lambda d: dialogs.append(d.message))
    payload = "<img src=x onerror=alert(1)> ![cat](https://evil.example/cat.png) <script>alert(2)</script>"
    aiwallet.reply([payload[:20], payload[20:]])
    await connect(shop)
    await ask(shop, payload)
    assert await answered(shop) == payload
    assert await shop.locator("#transcript img, #transcript script").count() == 0
    assert remote_requests == [] and dialogs == []


async def test_the_sdk_blurb_uses_the_published_openai_sdk_through_the_wallet(aiwallet, page, daphne_server):
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/books/dune/")
    await connect(page)
    aiwallet.reply(["A desert planet, ", "a spice, a reckoning."])
    await page.get_by_role("button", name="Write a one-line blurb").click()
    await page.locator("#blurb", has_text="a reckoning.").wait_for()
    assert await page.locator("#blurb").text_content() == "A desert planet, a spice, a reckoning."
    chat = aiwallet.chats[-1]
    assert "Dune" in json.dumps(chat.messages)
    assert (chat.options or {}).get("maxTokens") == 60


async def test_each_widget_state_has_its_own_words_and_a_screenshot(aiwallet, page, daphne_server):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    widget = page.locator("ai-connect-widget")
    seen = {}

    async def capture(state):
        seen[state] = (await widget_state(page, state)).strip()
        # The bookshop shows its own one-line offer instead of the widget with no wallet: the
        # library's words for that state are still its own, shown here for the picture.
        await page.evaluate("() => { document.querySelector('ai-connect-widget').hidden = false; }")
        await widget.screenshot(path=ARTIFACTS / f"widget-{state}.png")

    await page.goto(daphne_server.url + "/bookshop/")
    await capture("noWallet")
    # "checking" lasts at most the 300 ms discovery: show it with a client that is still looking.
    await page.evaluate("""() => { document.querySelector('ai-connect-widget').client =
        { state: { status: 'checking' }, subscribe: () => () => {}, installUrl: '' }; }""")
    await capture("checking")
    await aiwallet.install(page)
    aiwallet.approval = "wait"
    await page.goto(daphne_server.url + "/bookshop/")
    await capture("disconnected")
    await page.get_by_role("button", name="Connect your AI").click()
    await capture("connecting")
    (await aiwallet.approval_window()).decline()
    await capture("error")
    aiwallet.approval = "approve"
    await page.get_by_role("button", name="Try again").click()
    await capture("connected")
    assert len(set(seen.values())) == 6
    assert await widget.get_attribute("role") == "status"


async def test_a_failed_add_to_basket_says_so_and_can_be_tried_again(shop, aiwallet):
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"query": "Frank Herbert"})])
    aiwallet.reply("Dune it is.")
    await connect(shop)
    await ask(shop, "Herbert?")
    await answered(shop)
    await shop.route("**/api/mcp", lambda route: route.abort())
    button = shop.locator(".assistant-cards button").first
    await button.click()
    await shop.locator(".assistant-cards button:enabled", has_text="Could not add: try again").wait_for()
    assert await button.get_attribute("data-state") == "error"  # the error colour (bookshop.css)
    await shop.unroute("**/api/mcp")
    await button.click()
    await shop.locator(".assistant-cards button[aria-disabled='true']", has_text="In your basket").wait_for()


def scripted_search_result(text, structured):
    """A route handler that answers the page's search_books call with this result; the rest goes to the server."""

    async def handle(route):
        message = route.request.post_data_json
        if message.get("method") != "tools/call" or message["params"]["name"] != "search_books":
            await route.continue_()
            return
        result = {"content": [{"type": "text", "text": text}], "structuredContent": structured}
        await route.fulfill(json={"jsonrpc": "2.0", "id": message["id"], "result": result})

    return handle


def card_book(slug, title):
    return {
        "slug": slug,
        "title": title,
        "author": "A. Writer",
        "year": 2001,
        "price": "9.99",
        "moods": ["calm"],
    }


async def test_the_cards_come_from_the_structured_content_not_the_tool_text(shop, aiwallet):
    json_requests = []
    shop.on("request", lambda r: "/bookshop/books.json" in r.url and json_requests.append(r.url))
    structured = {
        "books": [
            card_book("dune", "Dune, as the tool said"),
            card_book("jane-eyre", "Jane Eyre, as the tool said"),
        ]
    }
    await shop.route("**/api/mcp", scripted_search_result("Two books for a quiet night.", structured))
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm"})])
    aiwallet.reply("Two for tonight.")
    await connect(shop)
    await ask(shop, "A calm book")
    assert await answered(shop) == "Two for tonight."
    cards = shop.locator(".assistant-cards .title")
    assert await cards.all_text_contents() == ["Dune, as the tool said", "Jane Eyre, as the tool said"]
    assert [await cards.nth(i).get_attribute("href") for i in range(2)] == [
        "/bookshop/books/dune/",
        "/bookshop/books/jane-eyre/",
    ]
    tool_message = next(m for m in aiwallet.chats[1].messages if m["role"] == "tool")
    assert tool_message["content"] == "Two books for a quiet night."
    assert json_requests == []
    assert shop.console_problems == []


async def test_slugs_in_the_tool_text_without_structured_books_show_no_cards(shop, aiwallet):
    text = "1 book(s):\n- Dune by Frank Herbert (1965), £9.99 [dune] moods: epic"
    await shop.route("**/api/mcp", scripted_search_result(text, {"books": []}))
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"query": "Herbert"})])
    aiwallet.reply("Dune.")
    await connect(shop)
    await ask(shop, "Herbert?")
    assert await answered(shop) == "Dune."
    assert await shop.locator(".turn.assistant .tool").text_content() == "Searched: “Herbert”"
    assert await shop.locator(".assistant-cards").count() == 0


async def test_malformed_books_in_the_structured_content_are_left_out_as_text(shop, aiwallet):
    structured = {
        "books": [
            card_book("dune", "<img src=x onerror=alert(1)>"),
            {"slug": "emma", "title": ["not", "text"]},
            "the-hobbit",
        ]
    }
    await shop.route("**/api/mcp", scripted_search_result("Books.", structured))
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm"})])
    aiwallet.reply("Here.")
    await connect(shop)
    await ask(shop, "A calm book")
    await answered(shop)
    assert await shop.locator(".assistant-cards .title").all_text_contents() == [
        "<img src=x onerror=alert(1)>"
    ]
    assert await shop.locator(".assistant-cards .title img").count() == 0


async def test_a_failed_tool_shows_as_failed_with_no_cards_and_the_model_reads_the_error(shop, aiwallet):
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "gloomy"})])
    aiwallet.reply("That mood is not in this shop.")
    await connect(shop)
    await ask(shop, "Something gloomy")
    assert await answered(shop) == "That mood is not in this shop."
    tool = shop.locator(".turn.assistant .tool")
    assert await tool.get_attribute("data-state") == "failed"
    assert await tool.text_content() == "Looking for gloomy books… (failed)"
    assert await shop.locator(".assistant-cards").count() == 0
    assert await shop.locator(".turn.assistant").last.get_attribute("class") == "turn assistant"
    tool_message = next(m for m in aiwallet.chats[1].messages if m["role"] == "tool")
    assert tool_message["content"].startswith("Tool error: ")
    assert "There is no mood 'gloomy'." in tool_message["content"]
