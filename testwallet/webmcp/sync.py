"""The browser agent on Playwright's sync API, and its fixtures (pytest-playwright, and plain scripts)."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Error, Page

from testwallet._driver import DEFAULT_TIMEOUT, refuse_test_kind
from testwallet.webmcp.agent import webmcp_launch_args
from testwallet.webmcp.records import (
    WAIT_FOR_TOOLS,
    AgentTool,
    ToolResult,
    WebMCPMissing,
    not_enabled,
    registration_timeout,
)

__all__ = ["SyncBrowserAgent", "browser_agent", "webmcp_browser"]


class SyncBrowserAgent:
    """:class:`~testwallet.webmcp.BrowserAgent` with plain calls, for sync Playwright."""

    __test__ = False

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self._contexts: list[BrowserContext] = []

    def new_page(self) -> Page:
        """Return a page in a new browser context: a new visitor, with cookies of their own."""
        context = self.browser.new_context()
        self._contexts.append(context)
        return context.new_page()

    def tools(self, page: Page) -> list[AgentTool]:
        """Return the tools the page has registered now."""
        try:
            listed = page.webmcp.tools()
        except Error as error:
            if not_enabled(error):
                raise WebMCPMissing(page.url) from None
            raise
        return [AgentTool.from_playwright(entry) for entry in listed]

    def wait_for_tools(self, page: Page, *names: str, timeout: float = DEFAULT_TIMEOUT) -> list[AgentTool]:
        """Wait until the page registered ``names`` (none: any tool) and return its tools.

        TimeoutError after ``timeout`` s.
        """
        missing = page.evaluate(WAIT_FOR_TOOLS, [list(names), timeout * 1000])
        if missing is None:
            raise WebMCPMissing(page.url)
        tools = self.tools(page)
        if missing:
            raise registration_timeout(page.url, missing, [tool.name for tool in tools], timeout)
        return tools

    def call_tool(
        self,
        page: Page,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> ToolResult:
        """Call a tool the page registered, as the browser's agent does, and return its result."""
        try:
            value = page.webmcp.call_tool(name, arguments or {}, timeout=timeout * 1000)
        except Error as error:
            if not_enabled(error):
                raise WebMCPMissing(page.url) from None
            raise
        return ToolResult.from_execute(value)

    def close(self) -> None:
        """Close the visitors' contexts this agent opened."""
        for context in self._contexts:
            context.close()
        self._contexts.clear()


@pytest.fixture(scope="session")
def webmcp_browser(browser_type: BrowserType, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium launched with WebMCP on, for the session (the suite's own browser stays without it)."""
    browser = browser_type.launch(**webmcp_launch_args(browser_type_launch_args))
    yield browser
    browser.close()


@pytest.fixture
def browser_agent(request: pytest.FixtureRequest, webmcp_browser: Browser) -> Iterator[SyncBrowserAgent]:
    """The browser's own agent, for sync tests: ``page = browser_agent.new_page()``, then list and call."""
    refuse_test_kind(request, "browser_agent", sync=True)
    agent = SyncBrowserAgent(webmcp_browser)
    yield agent
    agent.close()
