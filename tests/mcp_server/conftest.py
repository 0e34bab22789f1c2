"""The MCP tests each start from their own database: never from another test's bookshop catalog in memory."""

import pytest

from sites.bookshop import index


@pytest.fixture(autouse=True)
def fresh_catalog_index():
    """Drop the in-memory catalog around each test (a rolled-back test sends no signal)."""
    index.invalidate()
    yield
    index.invalidate()
