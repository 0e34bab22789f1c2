"""
What a page weighs over the wire in Chromium, for budgets in a site's CI.

``await measure(page, url)`` opens ``url`` in a Playwright page and returns every
response its load fetched (until the network is quiet), with the body's size as it
crossed the wire (compressed when the server compressed it), its encoding and its
``Cache-Control``, and the page's first-load time (navigation start to the load
event)::

    weight = await measure(page, server.url + "/bookshop/")
    scripts = weight.files(kind="script")
    assert total(scripts) <= 20 * 1024

Use a new browser context for each measure: a cached file is not fetched again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.async_api import Page, Request

__all__ = ["HASHED_NAME", "Fetched", "PageWeight", "measure", "total"]

# Django's ManifestStaticFilesStorage names a file name.<12 hex digits>.ext.
HASHED_NAME = re.compile(r"\.[0-9a-f]{12}\.[a-z0-9]+$")


@dataclass(frozen=True)
class Fetched:
    """One response the page's load received."""

    path: str
    kind: str  # Playwright's resource type: "document", "script", "stylesheet", "image", "fetch" ...
    status: int
    body_bytes: int  # as it crossed the wire: compressed when Content-Encoding says so
    encoding: str  # Content-Encoding, "" when none
    cache_control: str

    @property
    def hashed(self) -> bool:
        """Whether the file's name carries a content hash (so it may be cached for good)."""
        return bool(HASHED_NAME.search(self.path))

    @property
    def max_age(self) -> int:
        """The Cache-Control max-age in seconds, 0 when there is none."""
        found = re.search(r"max-age=(\d+)", self.cache_control)
        return int(found[1]) if found else 0


@dataclass
class PageWeight:
    """Everything one load of a page fetched, and how long the load took."""

    url: str
    fetched: list[Fetched] = field(default_factory=list)
    load_ms: float = 0.0

    def files(self, *, kind: str | None = None, under: Iterable[str] = ()) -> list[Fetched]:
        """Return the responses of resource type ``kind`` whose path starts with one of ``under``."""
        prefixes = tuple(under)
        return [
            item
            for item in self.fetched
            if (kind is None or item.kind == kind) and (not prefixes or item.path.startswith(prefixes))
        ]


def total(files: Iterable[Fetched]) -> int:
    """Return the bytes over the wire of ``files``' bodies."""
    return sum(item.body_bytes for item in files)


async def measure(page: Page, url: str, *, timeout_ms: float = 30_000) -> PageWeight:
    """Load ``url`` in ``page`` until the network is quiet; return what it fetched and its load time."""
    finished: list[Request] = []

    def note(request: Request) -> None:
        finished.append(request)

    page.on("requestfinished", note)
    try:
        await page.goto(url, wait_until="networkidle", timeout=timeout_ms)
    finally:
        page.remove_listener("requestfinished", note)
    weight = PageWeight(url=url)
    weight.load_ms = await page.evaluate(
        "() => { const [n] = performance.getEntriesByType('navigation'); return n.loadEventEnd - n.startTime; }"
    )
    for request in finished:
        response = await request.response()
        if response is None:
            continue
        sizes = await request.sizes()
        headers = await response.all_headers()
        weight.fetched.append(
            Fetched(
                path=urlsplit(request.url).path,
                kind=request.resource_type,
                status=response.status,
                body_bytes=sizes["responseBodySize"],
                encoding=headers.get("content-encoding", ""),
                cache_control=headers.get("cache-control", ""),
            )
        )
    return weight
