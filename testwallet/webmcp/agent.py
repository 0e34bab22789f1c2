"""The browser agent on Playwright's async API, and its fixtures (pytest-playwright-asyncio)."""

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, BrowserType, Error, Page

from testwallet._driver import DEFAULT_TIMEOUT, refuse_test_kind, wallet_fixture
from testwallet.webmcp.records import (
    WAIT_FOR_TOOLS,
    WEBMCP_FLAG,
    AgentTool,
    ToolResult,
    WebMCPMissing,
    not_enabled,
    registration_timeout,
)


class BrowserAgent:
    """The agent of a Chromium with WebMCP on: opens visitors' pages, lists and calls their tools."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self._contexts: list[BrowserContext] = []

    async def new_page(self) -> Page:
        """Return a page in a new browser context: a new visitor, with cookies of their own."""
        context = await self.browser.new_context()
        self._contexts.append(context)
        return await context.new_page()

    async def tools(self, page: Page) -> list[AgentTool]:
        """Return the tools the page has registered now."""
        try:
            listed = await page.webmcp.tools()
        except Error as error:
            if not_enabled(error):
                raise WebMCPMissing(page.url) from None
            raise
        return [AgentTool.from_playwright(entry) for entry in listed]

    async def wait_for_tools(
        self,
        page: Page,
        *names: str,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[AgentTool]:
        """Wait until the page registered ``names`` (none: any tool) and return its tools.

        TimeoutError after ``timeout`` s.
        """
        missing = await page.evaluate(WAIT_FOR_TOOLS, [list(names), timeout * 1000])
        if missing is None:
            raise WebMCPMissing(page.url)
        tools = await self.tools(page)
        if missing:
            raise registration_timeout(page.url, missing, [tool.name for tool in tools], timeout)
        return tools

    async def call_tool(
        self,
        page: Page,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> ToolResult:
        """Call a tool the page registered, as the browser's agent does, and return its result."""
        try:
            value = await page.webmcp.call_tool(name, arguments or {}, timeout=timeout * 1000)
        except Error as error:
            if not_enabled(error):
                raise WebMCPMissing(page.url) from None
            raise
        return ToolResult.from_execute(value)

    async def aclose(self) -> None:
        """Close the visitors' contexts this agent opened."""
        for context in self._contexts:
            await context.close()
        self._contexts.clear()


def webmcp_launch_args(launch_args: dict[str, Any]) -> dict[str, Any]:
    """Return the suite's browser launch arguments with WebMCP turned on."""
    return {**launch_args, "args": [*launch_args.get("args", []), WEBMCP_FLAG]}


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def webmcp_browser(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any]
) -> AsyncIterator[Browser]:
    """Chromium launched with WebMCP on, for the session (the suite's own browser stays without it)."""
    browser = await browser_type.launch(**webmcp_launch_args(browser_type_launch_args))
    yield browser
    await browser.close()


@wallet_fixture
async def browser_agent(
    request: pytest.FixtureRequest, webmcp_browser: Browser
) -> AsyncIterator[BrowserAgent]:
    """The browser's own agent, for async tests: ``page = await browser_agent.new_page()``; list and call."""
    refuse_test_kind(request, "browser_agent", sync=False)
    agent = BrowserAgent(webmcp_browser)
    yield agent
    await agent.aclose()
