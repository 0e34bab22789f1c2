"""
A browser agent for tests: the agent built into the visitor's browser, which lists and calls the
tools a page registers with WebMCP (``document.modelContext``), as Chromium's own agent or an
extension acting for the visitor would. Sites test their WebMCP tools in CI with it the way they
test AI Wallet and BYOA. An async test (pytest-playwright-asyncio) with the ``daphne_server`` fixture::

    async def test_the_agent_finds_a_calm_book(daphne_server, browser_agent):
        page = await browser_agent.new_page()          # a new visitor, in Chromium with WebMCP on
        await page.goto(daphne_server.url + "/bookshop/")
        await browser_agent.wait_for_tools(page, "search_books")
        result = await browser_agent.call_tool(page, "search_books", {"mood": "calm"})
        assert not result.is_error and result.structured_content["books"]

Under pytest-playwright (sync) the same fixture has plain calls (:mod:`.sync`). The agent drives
its own Chromium, launched with ``--enable-features=WebMCP`` (:data:`WEBMCP_FLAG`); the suite's
``page`` stays without it, as most visitors' browsers are. A page with no WebMCP raises
:class:`WebMCPMissing`. Listing and calling go through Playwright's ``page.webmcp``, the browser's
agent side; :mod:`.records` holds what both faces share.
"""

from testwallet.webmcp.agent import BrowserAgent, browser_agent, webmcp_browser
from testwallet.webmcp.records import WEBMCP_FLAG, AgentTool, ToolResult, WebMCPMissing

__all__ = [
    "WEBMCP_FLAG",
    "AgentTool",
    "BrowserAgent",
    "ToolResult",
    "WebMCPMissing",
    "browser_agent",
    "webmcp_browser",
]
