# The browser_agent example of the docs' WebMCP page (docs/howto/webmcp.md), kept as a real
# test: the page includes this very file. The agent drives
# its own Chromium with WebMCP on; the page offers it the site's tools (frontend/webmcp/).

import pytest

from testwallet.webmcp import WebMCPMissing


async def test_the_browsers_own_agent_finds_a_book_and_fills_the_basket(daphne_server, browser_agent):
    page = await browser_agent.new_page()  # a new visitor, in Chromium with --enable-features=WebMCP
    await page.goto(daphne_server.url + "/bookshop/")
    await browser_agent.wait_for_tools(page, "search_books", "add_to_basket")
    found = await browser_agent.call_tool(page, "search_books", {"mood": "calm", "limit": 1})
    (book,) = found.structured_content["books"]
    added = await browser_agent.call_tool(page, "add_to_basket", {"slug": book["slug"]})
    assert not added.is_error
    await page.goto(daphne_server.url + "/bookshop/basket/")
    assert book["title"] in await page.locator("main").text_content()


async def test_a_tool_error_reaches_the_agent_as_a_result_it_can_read(daphne_server, browser_agent):
    page = await browser_agent.new_page()
    await page.goto(daphne_server.url + "/bookshop/")
    await browser_agent.wait_for_tools(page, "search_books")
    result = await browser_agent.call_tool(page, "search_books", {"mood": "grumpy"})
    assert result.is_error and "Use one of:" in result.text


async def test_most_visitors_browsers_have_no_webmcp_and_the_agent_says_so(
    daphne_server, page, browser_agent
):
    await page.goto(daphne_server.url + "/bookshop/")  # the suite's own page: no WebMCP
    with pytest.raises(WebMCPMissing, match="--enable-features=WebMCP"):
        await browser_agent.tools(page)
