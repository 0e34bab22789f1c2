"""
A browser agent for tests: the agent built into the visitor's browser, which lists and calls the
tools a page registers with WebMCP (``document.modelContext``) through Playwright's
``page.webmcp``, in its own Chromium launched with ``--enable-features=WebMCP``
(:data:`WEBMCP_FLAG`). The ``browser_agent`` fixture; its sync face is :mod:`.sync`, and
:mod:`.records` holds what both share. A page with no WebMCP raises :class:`WebMCPMissing`.
How to test a site's tools with it: docs/howto/webmcp.md.
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
