"""The bookshop with no wallet at all ("own mode"), in Chromium, and the page's own promises."""

import httpx
import pytest

from sites.home.snippet import END, START
from tests.served import readable_source, static_url

pytestmark = [pytest.mark.browser, pytest.mark.live]


def console_errors(page):
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


async def test_without_a_wallet_the_ai_offer_is_one_compact_line_within_the_discovery_time(
    daphne_server, page
):
    problems = console_errors(page)
    await page.goto(daphne_server.url + "/bookshop/")
    # 300 ms discovery; the bound leaves room for a slow CI machine, not for waiting on a wallet.
    await page.locator('#assistant-panel[data-wallet="noWallet"]').wait_for(timeout=2000)
    offer = page.locator("#ai-offer")
    assert await offer.text_content() == "It can pick books for you once AI Wallet is in this browser."
    assert (
        await page.get_by_role("link", name="AI Wallet").get_attribute("href")
        == "https://tensorpass.app/wallet"
    )
    assert await page.locator("ai-connect-widget").is_hidden()  # no panel about what is missing
    box = await offer.bounding_box()
    assert box["height"] < 2.5 * 24  # a line (two on a narrow screen), not a panel
    assert await page.locator("#ask").is_hidden()
    assert problems == []


async def test_own_mode_search_finds_books_by_mood_and_words(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/")
    await page.locator("select[name=mood]").select_option("epic")
    await page.locator("input[name=q]").fill("Frank Herbert")
    await page.get_by_role("button", name="Search").click()
    results = page.locator("#search-results .title")
    await results.first.wait_for()
    assert await results.all_text_contents() == ["Dune"]


async def test_own_mode_add_to_basket_fills_this_visitors_basket_only(daphne_server, browser):
    alice, bob = await browser.new_context(), await browser.new_context()
    try:
        shop = await alice.new_page()
        await shop.goto(daphne_server.url + "/bookshop/books/dune/")
        await shop.get_by_role("button", name="Add to basket (Dune)").click()
        await shop.locator(".added", has_text="Added “Dune”").wait_for(timeout=5000)
        await shop.goto(daphne_server.url + "/bookshop/basket/")
        assert "Dune" in await shop.locator("#basket").text_content()
        other = await bob.new_page()
        await other.goto(daphne_server.url + "/bookshop/basket/")
        assert await other.locator("#basket-empty").is_visible()
    finally:
        await alice.close()
        await bob.close()


async def test_basket_tool_from_the_page_acts_on_that_visitors_session_only(daphne_server, browser):
    call = """async ([library, name, args]) => {
        const { McpToolSource } = await import(library);
        return new McpToolSource('/api/mcp', 'Bookshop').callTool(name, args);
    }"""
    alice, bob = await browser.new_context(), await browser.new_context()
    try:
        a, b = await alice.new_page(), await bob.new_page()
        await a.goto(daphne_server.url + "/bookshop/")
        await b.goto(daphne_server.url + "/bookshop/")
        library = static_url(daphne_server, "aiconnect/index.js")  # the module the page itself loaded
        await a.evaluate(call, [library, "add_to_basket", {"slug": "jane-eyre"}])
        assert "Jane Eyre" in await a.evaluate(call, [library, "view_basket", {}])
        assert "Jane Eyre" not in await b.evaluate(call, [library, "view_basket", {}])
    finally:
        await alice.close()
        await bob.close()


async def test_how_this_page_works_shows_exactly_the_lines_of_the_served_script(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/")
    shown = await page.locator("#integration-snippet").text_content()
    served = readable_source(daphne_server, "bookshop/assistant.js").splitlines()
    expected = "\n".join(served[served.index(START) + 1 : served.index(END)])
    assert shown == expected
    assert "runConversation(" in shown and "McpToolSource('/api/mcp', 'Bookshop')" in shown


async def test_book_covers_are_generated_svg_with_the_title_as_text(daphne_server):
    async with httpx.AsyncClient() as client:
        response = await client.get(daphne_server.url + "/bookshop/covers/dune.svg")
    assert response.headers["content-type"] == "image/svg+xml"
    assert ">Dune<" in response.text


async def test_every_search_says_what_it_found_in_a_visitors_words(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/")
    for search in ("suggestion", "form"):
        if search == "suggestion":
            await page.locator("#suggestions .chip").first.click()
        else:
            await page.locator("select[name=mood]").select_option("")  # the suggestion's mood was kept
            await page.locator("input[name=q]").fill("Frank Herbert")
            await page.get_by_role("button", name="Search", exact=True).click()
        await page.locator("#search-results .title").first.wait_for()
        section = await page.locator(".found").inner_text()
        assert "AI" not in section and "no AI" not in section, search
    assert await page.locator("#search-found").text_content() == "1 book found for “Frank Herbert”"


async def test_an_empty_search_suggests_what_to_try_and_a_mood_link_finds_books(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/")
    await page.locator("input[name=q]").fill("zeppelins of mars")
    await page.get_by_role("button", name="Search", exact=True).click()
    empty = page.locator("#search-empty")
    await empty.wait_for()
    assert await page.locator("#search-found").text_content() == "0 books found for “zeppelins of mars”"
    assert "Try one word" in await empty.text_content()
    await empty.get_by_role("link", name="funny").click()
    await page.locator("#search-results .title").first.wait_for()
    assert await page.locator("#search-results > li").count() > 1


async def test_a_plural_typed_in_the_search_finds_the_books_of_its_singular(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/?q=dragons")
    assert await page.locator("#search-results .title").all_text_contents() == [
        "Guards! Guards!",
        "The Girl with the Dragon Tattoo",
        "The Hobbit",
    ]


async def test_a_book_page_speaks_a_visitors_language_outside_how_this_page_works(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/books/dune/")
    await page.locator("#blurb-offer").wait_for(timeout=2000)
    assert await page.locator("ai-connect-widget").is_hidden()
    shown = (await page.locator("main").inner_text()).split("How this page works")[0]
    for plumbing in ("SDK", "openai", "sdkOptions", "No AI Wallet"):
        assert plumbing not in shown, plumbing
    await page.get_by_text("How this page works").click()
    assert "client.sdkOptions" in await page.locator("#how-it-works").inner_text()
