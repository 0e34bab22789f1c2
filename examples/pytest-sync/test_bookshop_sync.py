# The sync example of docs/howto/ci.md ("Test your site in CI"): pytest-playwright's `page`, and the
# same fixtures as the async suite (daphne_server, aiwallet, byoa_extension), with plain calls.

from testwallet.aiwallet import ToolCall


def test_my_page_sees_both_wallets(page, daphne_server, aiwallet, byoa_extension):
    aiwallet.install(page)  # window.aiwallet, before the page's scripts
    byoa_extension.install(page)  # window.byoa
    page.goto(daphne_server.url + "/")
    page.locator("html[data-wallets-checked=true]").wait_for(timeout=5000)
    assert page.locator('[data-wallet="aiwallet"] .status').text_content() == "found"
    assert page.locator('[data-wallet="byoa"] .status').text_content() == "found"


def test_my_page_answers_through_the_visitors_ai(page, daphne_server, aiwallet):
    aiwallet.install(page)
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm", "limit": 1})])
    aiwallet.reply(["A calm ", "pick."])  # the scripted model: a tool call, then streamed text
    page.goto(daphne_server.url + "/bookshop/")
    page.get_by_role("button", name="Connect your AI").click()  # the visitor approves
    page.locator("#question").fill("Something calm")
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text("A calm pick.").wait_for()
    aiwallet.wait_until(lambda wallet: len(wallet.chats) == 2 and wallet.chats[-1].outcome == "answered")
    assert aiwallet.requests[0].method == "status"
    assert [m["role"] for m in aiwallet.chats[-1].messages][-2:] == ["assistant", "tool"]


def test_my_page_falls_back_when_the_visitor_declines(page, daphne_server, aiwallet):
    aiwallet.install(page)
    aiwallet.consent = "decline"  # the visitor declines in the approval window
    page.goto(daphne_server.url + "/bookshop/")
    page.get_by_role("button", name="Connect your AI").click()
    page.locator('ai-connect-widget[data-state="error"]').wait_for()
    assert page.locator("form.search").is_visible()  # own mode still works


def test_my_page_says_when_the_visitors_plan_is_spent(page, daphne_server, aiwallet):
    aiwallet.install(page)
    aiwallet.fail(429, "Your plan is spent")  # the provider refuses: the page gets 429
    page.goto(daphne_server.url + "/bookshop/")
    page.get_by_role("button", name="Connect your AI").click()
    page.locator("#question").fill("Anything")
    page.get_by_role("button", name="Ask", exact=True).click()
    error = page.locator('#assistant-error[data-status="429"]')
    error.wait_for()
    assert "Your plan is spent" in error.text_content()


def test_the_browsers_own_agent_finds_a_book_and_fills_the_basket(daphne_server, browser_agent):
    agent_page = browser_agent.new_page()  # a new visitor, in Chromium with --enable-features=WebMCP
    agent_page.goto(daphne_server.url + "/bookshop/")
    browser_agent.wait_for_tools(agent_page, "search_books", "add_to_basket")
    found = browser_agent.call_tool(agent_page, "search_books", {"mood": "calm", "limit": 1})
    (book,) = found.structured_content["books"]
    assert not browser_agent.call_tool(agent_page, "add_to_basket", {"slug": book["slug"]}).is_error
    agent_page.goto(daphne_server.url + "/bookshop/basket/")
    assert book["title"] in agent_page.locator("main").text_content()
