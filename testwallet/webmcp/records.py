"""What both faces of the browser agent share: its records, its error, and the page-side wait."""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import WebMCPTool

#: The Chromium switch that turns WebMCP on (Chromium 146 and later).
WEBMCP_FLAG = "--enable-features=WebMCP"

# Playwright's message when the browser was launched without the flag (WebMCP.tools / call_tool).
_PLAYWRIGHT_NOT_ENABLED = "WebMCP is not enabled"


class WebMCPMissing(RuntimeError):
    """Raised when the page the agent is given has no WebMCP (``document.modelContext``)."""

    def __init__(self, url: str) -> None:
        super().__init__(
            f"The page at {url} has no WebMCP (document.modelContext): launch Chromium with "
            f"{WEBMCP_FLAG} (Chromium 146 or later; the browser_agent fixture's own browser has it, "
            "the suite's page does not), and serve the page from a secure context "
            "(https:// or http://localhost)."
        )


@dataclass(frozen=True)
class AgentTool:
    """A tool as the browser's agent sees it: what the page registered."""

    name: str
    description: str
    input_schema: dict[str, Any] | None
    read_only: bool  # WebMCP's readOnlyHint
    untrusted_content: bool  # WebMCP's untrustedContentHint

    @classmethod
    def from_playwright(cls, listed: "WebMCPTool") -> "AgentTool":
        """Return the tool of one entry of Playwright's ``page.webmcp.tools()``."""
        annotations = listed.get("annotations") or {}
        return cls(
            name=listed["name"],
            description=listed.get("description", ""),
            input_schema=listed.get("inputSchema"),
            read_only=annotations.get("readOnly") is True,
            untrusted_content=annotations.get("untrustedContent") is True,
        )


@dataclass(frozen=True)
class ToolResult:
    """What a tool's ``execute`` resolved with, read as an MCP result."""

    content: list[dict[str, Any]]
    is_error: bool
    structured_content: dict[str, Any] | None = None
    raw: Any = field(default=None, repr=False)

    @classmethod
    def from_execute(cls, value: Any) -> "ToolResult":
        """Return the result of what ``execute`` resolved with (a non-object becomes one text part)."""
        if not isinstance(value, dict):
            return cls(content=[{"type": "text", "text": str(value)}], is_error=False, raw=value)
        content = value.get("content")
        structured = value.get("structuredContent")
        return cls(
            content=content if isinstance(content, list) else [],
            is_error=value.get("isError") is True,
            structured_content=structured if isinstance(structured, dict) else None,
            raw=value,
        )

    @property
    def text(self) -> str:
        """The result's text parts joined with line breaks, as a model reads them."""
        return "\n".join(part.get("text", "") for part in self.content if part.get("type") == "text")


def not_enabled(error: Exception) -> bool:
    """Whether a Playwright error says the browser was launched without WebMCP."""
    return _PLAYWRIGHT_NOT_ENABLED in str(error)


# Resolves with the names of `wanted` the page has not registered when `timeoutMs` ends (none:
# all registered; with no names wanted, until the first tool), or null when the page has no
# WebMCP. It wakes on the model context's toolchange event, never on a timer of its own.
WAIT_FOR_TOOLS = """([wanted, timeoutMs]) => {
  const context = document.modelContext;
  if (!context) return null;
  const missing = async () => {
    const names = new Set((await context.getTools()).map((tool) => tool.name));
    return wanted.length ? wanted.filter((name) => !names.has(name)) : (names.size ? [] : ['any tool']);
  };
  return new Promise((resolve) => {
    const finish = (left) => {
      context.removeEventListener('toolchange', check);
      clearTimeout(timer);
      resolve(left);
    };
    const check = () => missing().then((left) => { if (left.length === 0) finish(left); });
    const timer = setTimeout(() => missing().then(finish), timeoutMs);
    context.addEventListener('toolchange', check);
    check();
  });
}"""


def registration_timeout(url: str, missing: list[str], registered: list[str], timeout: float) -> TimeoutError:
    """Return the TimeoutError of a wait for tools that did not all come."""
    return TimeoutError(
        f"The page at {url} did not register {', '.join(missing)} within {timeout} s; "
        f"it registered: {', '.join(registered) or 'nothing'}."
    )
