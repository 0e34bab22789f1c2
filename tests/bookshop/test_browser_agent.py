"""The bookshop's tools offered to the browser's own agent (WebMCP), in Chromium with the flag, on a real server."""

import pytest

from sites.home.snippet import END, START
from tests.served import readable_source
from testwallet.webmcp import WEBMCP_FLAG, WebMCPMissing

pytestmark = [pytest.mark.browser, pytest.mark.live]

TOOLS = ["search_books", "get_book", "list_moods", "add_to_basket", "view_basket"]


async def open_shop(browser_agent, daphne_server):
    """Return a new visitor's bookshop page once the page has offered every tool."""
    page = await browser_agent.new_page()
    await page.goto(daphne_server.url + "/bookshop/")
    await browser_agent.wait_for_tools(page, *TOOLS)
    return page


async def test_the_browser_agent_lists_the_shops_tools_with_their_schemas_and_annotations(
    daphne_server, browser_agent
):
    page = await open_shop(browser_agent, daphne_server)
    tools = {tool.name: tool for tool in await browser_agent.tools(page)}
    assert sorted(tools) == sorted(TOOLS)
    search = tools["search_books"]
    assert search.description.startswith("Search the shop's catalog by mood")
    assert set(search.input_schema["properties"]) == {"mood", "query", "limit"}
    assert search.input_schema["additionalProperties"] is False
    assert search.input_schema["properties"]["limit"]["maximum"] >= 1
    assert {name for name, tool in tools.items() if tool.read_only} == set(TOOLS) - {"add_to_basket"}
    # The shop's tools return only the shop's own text: each declares a closed world.
    assert not any(tool.untrusted_content for tool in tools.values())
    titles = await page.evaluate("async () => (await document.modelContext.getTools()).map((t) => t.title)")
    assert sorted(titles) == ["Add to basket", "Get a book", "List moods", "Search books", "View basket"]


async def test_the_page_says_when_a_browser_agent_can_use_the_shop(daphne_server, browser_agent):
    page = await open_shop(browser_agent, daphne_server)
    status = page.locator("#browser-agent[data-tools='5']")
    await status.wait_for()
    assert "Your browser's own agent can use this shop too" in await status.text_content()


async def test_a_browser_agent_searches_by_mood_adds_a_book_and_the_basket_page_shows_it(
    daphne_server, browser_agent
):
    page = await open_shop(browser_agent, daphne_server)
    found = await browser_agent.call_tool(page, "search_books", {"mood": "calm", "limit": 2})
    assert not found.is_error
    books = found.structured_content["books"]
    assert books and all("calm" in book["moods"] for book in books)
    assert books[0]["title"] in found.text
    added = await browser_agent.call_tool(page, "add_to_basket", {"slug": books[0]["slug"], "quantity": 2})
    assert not added.is_error
    assert added.structured_content["items"] == [{"book": books[0], "quantity": 2}]
    await page.goto(daphne_server.url + "/bookshop/basket/")
    assert books[0]["title"] in await page.locator("main").text_content()


async def test_an_unknown_mood_comes_back_as_a_tool_error_naming_the_moods(daphne_server, browser_agent):
    page = await open_shop(browser_agent, daphne_server)
    result = await browser_agent.call_tool(page, "search_books", {"mood": "grumpy"})
    assert result.is_error
    assert "There is no mood 'grumpy'. Use one of:" in result.text
    assert "calm" in result.text


async def test_a_visitors_basket_is_not_reachable_from_another_browser_context(daphne_server, browser_agent):
    alice = await open_shop(browser_agent, daphne_server)
    bob = await open_shop(browser_agent, daphne_server)
    await browser_agent.call_tool(alice, "add_to_basket", {"slug": "jane-eyre"})
    assert "Jane Eyre" in (await browser_agent.call_tool(alice, "view_basket")).text
    bobs = await browser_agent.call_tool(bob, "view_basket")
    assert not bobs.is_error
    assert "Jane Eyre" not in bobs.text and bobs.structured_content["items"] == []
    await bob.goto(daphne_server.url + "/bookshop/basket/")
    assert "Jane Eyre" not in await bob.locator("main").text_content()


async def test_a_page_without_webmcp_loads_with_no_error_and_registers_nothing(daphne_server, page):
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    mcp_posts = []
    page.on("request", lambda request: "/api/mcp" in request.url and mcp_posts.append(request))
    await page.goto(daphne_server.url + "/bookshop/")
    # Hidden with no wallet (the AI's offer is one line then), but there once detection has spoken.
    await page.locator('ai-connect-widget[data-state="noWallet"]').wait_for(state="attached", timeout=2000)
    assert await page.evaluate("typeof document.modelContext") == "undefined"
    assert await page.locator("#browser-agent").is_hidden()
    assert mcp_posts == []  # nothing was even listed for an agent that is not there
    assert problems == []


async def test_the_agent_says_how_to_turn_webmcp_on_for_a_page_without_it(daphne_server, page, browser_agent):
    await page.goto(daphne_server.url + "/bookshop/")
    with pytest.raises(WebMCPMissing, match=WEBMCP_FLAG):
        await browser_agent.tools(page)
    with pytest.raises(WebMCPMissing, match=WEBMCP_FLAG):
        await browser_agent.wait_for_tools(page, "search_books")


async def test_how_this_page_works_shows_the_line_that_offers_the_tools_to_the_browser_agent(
    daphne_server, page
):
    await page.goto(daphne_server.url + "/bookshop/")
    shown = await page.locator("#browser-agent-snippet").text_content()
    served = readable_source(daphne_server, "bookshop/browser-agent.js").splitlines()
    assert shown == "\n".join(served[served.index(START) + 1 : served.index(END)])
    assert "exposeTools(new McpToolSource('/api/mcp'" in shown
