# The example of the docs' "Test your site in CI" (docs/howto/ci.md), kept as a
# real test so it can never go stale: the page includes this very file. A site
# installs our package and gets these fixtures from its pytest plugin:
# daphne_server, aiwallet, byoa_extension, direct_wallet.

from testwallet.aiwallet import ToolCall


async def test_my_page_sees_both_wallets(page, daphne_server, aiwallet, byoa_extension):
    await aiwallet.install(page)  # window.aiwallet, before the page's scripts
    await byoa_extension.install(page)  # window.byoa
    await page.goto(daphne_server.url + "/")
    await page.locator("html[data-wallets-checked=true]").wait_for(timeout=5000)
    assert await page.locator('[data-wallet="aiwallet"] .status').text_content() == "found"
    assert await page.locator('[data-wallet="byoa"] .status').text_content() == "found"


async def test_my_page_answers_through_the_visitors_ai(page, daphne_server, aiwallet):
    await aiwallet.install(page)
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm", "limit": 1})])
    aiwallet.reply(["A calm ", "pick."])  # the scripted model: a tool call, then streamed text
    await page.goto(daphne_server.url + "/bookshop/")
    await page.get_by_role("button", name="Connect your AI").click()  # the visitor approves
    await page.locator("#question").fill("Something calm")
    await page.get_by_role("button", name="Ask", exact=True).click()
    await page.get_by_text("A calm pick.").wait_for()
    await aiwallet.wait_until(
        lambda wallet: len(wallet.chats) == 2 and wallet.chats[-1].outcome == "answered"
    )
    assert aiwallet.requests[0].method == "status"
    assert [m["role"] for m in aiwallet.chats[-1].messages][-2:] == ["assistant", "tool"]


async def test_my_page_falls_back_when_the_visitor_declines(page, daphne_server, aiwallet):
    await aiwallet.install(page)
    aiwallet.consent = "decline"  # the visitor declines in the approval window
    await page.goto(daphne_server.url + "/bookshop/")
    await page.get_by_role("button", name="Connect your AI").click()
    await page.locator('ai-connect-widget[data-state="error"]').wait_for()
    assert await page.locator("form.search").is_visible()  # own mode still works


async def test_my_page_says_when_the_visitors_plan_is_spent(page, daphne_server, aiwallet):
    await aiwallet.install(page)
    aiwallet.fail(429, "Your plan is spent")  # the provider refuses: the page gets 429
    await page.goto(daphne_server.url + "/bookshop/")
    await page.get_by_role("button", name="Connect your AI").click()
    await page.locator("#question").fill("Anything")
    await page.get_by_role("button", name="Ask", exact=True).click()
    error = page.locator('#assistant-error[data-status="429"]')
    await error.wait_for()
    assert "Your plan is spent" in await error.text_content()
