"""frontend/aiconnect's McpToolSource in Chromium, against our own MCP server on daphne."""

import pytest

from tests.served import static_url

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Runs in the page: the module is the static file the bookshop serves.
LIST_AND_CALL = """
async (library) => {
  const { McpToolSource } = await import(library);
  const tools = new McpToolSource('/api/mcp', 'Bookshop');
  const listed = await tools.listTools();
  return {
    names: listed.map((tool) => tool.name).sort(),
    schema: listed.find((tool) => tool.name === 'search_books').inputSchema,
    found: await tools.callTool('search_books', { mood: 'calm', limit: 2 }),
    bad: await tools.callTool('search_books', { limit: 'lots' }),
    added: await tools.callTool('add_to_basket', { slug: 'dune' }),
    basket: await tools.callTool('view_basket', {}),
  };
}
"""


async def test_mcp_tool_source_lists_and_calls_our_tools_from_the_shop_page(daphne_server, page):
    await page.goto(daphne_server.url + "/bookshop/")
    result = await page.evaluate(LIST_AND_CALL, static_url(daphne_server, "aiconnect/index.js"))
    assert result["names"] == ["add_to_basket", "get_book", "list_moods", "search_books", "view_basket"]
    assert result["schema"]["properties"]["limit"]["maximum"] == 20
    assert result["found"].startswith("2 book(s):")
    assert result["bad"].startswith("Tool error: ")
    assert "limit" in result["bad"]
    # The page's fetch carried the shop's session cookie: the basket is this visitor's.
    assert "Dune" in result["added"]
    assert "1 x Dune" in result["basket"]
