"""
The bookshop's MCP tools, served at /api/mcp with every other app's tools.

Each returns a readable text for the model and the same facts as structured
content for the page (which renders book cards from it). A domain failure (an
unknown mood or book, no browser session) is a ToolError: the model reads the
message and can correct itself. Argument types and ranges are checked against
the advertised JSON Schema before a tool runs (mcp_server/server.py).
"""

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, TextContent
from pydantic import Field

from mcp_server import ToolError, tool
from mcp_server.visitor_sessions import from_browser_page, visitor_session
from sites.bookshop import catalog
from sites.bookshop.basket import MAX_QUANTITY, Basket


def _result(text, data):
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _book_line(data):
    """Return one line about a book, from its catalog.as_dict data."""
    moods = ", ".join(data["moods"])
    return f"- {data['title']} by {data['author']} ({data['year']}), £{data['price']} [{data['slug']}] moods: {moods}"


@tool(title="Search books", read_only=True)
async def search_books(
    mood: Annotated[
        str | None, Field(description="One mood from list_moods, e.g. 'calm'.", max_length=40)
    ] = None,
    query: Annotated[
        str | None, Field(description="Words to find in title, author, genre or blurb.", max_length=200)
    ] = None,
    limit: Annotated[int, Field(description="How many books at most.", ge=1, le=catalog.MAX_RESULTS)] = 5,
) -> CallToolResult:
    """Search the shop's catalog by mood and/or free text; returns books with their slugs."""
    try:
        books = await catalog.search(mood=mood, query=query, limit=limit)
    except catalog.UnknownMood:
        moods = ", ".join(await catalog.mood_slugs())
        raise ToolError(f"There is no mood {mood!r}. Use one of: {moods}.") from None
    found = [catalog.as_dict(book) for book in books]
    if not found:
        text = "No books match. Try another mood, fewer words, or list_moods."
    else:
        text = f"{len(found)} book(s):\n" + "\n".join(map(_book_line, found))
    return _result(text, {"books": found})


@tool(title="Get a book", read_only=True)
async def get_book(
    slug: Annotated[str, Field(description="The book's slug, as search_books returns it.", max_length=120)],
) -> CallToolResult:
    """Return everything the shop knows about one book."""
    try:
        book = await catalog.get(slug)
    except catalog.UnknownBook:
        raise ToolError(f"There is no book with slug {slug!r}. Use search_books to find slugs.") from None
    data = catalog.as_dict(book)
    text = f"{_book_line(data)}\n{book.pages} pages, {book.genre}.\n{book.blurb}"
    return _result(text, {"book": data})


@tool(title="List moods", read_only=True)
async def list_moods() -> CallToolResult:
    """List the moods that search_books accepts."""
    moods = await catalog.mood_slugs()
    return _result("Moods: " + ", ".join(moods), {"moods": moods})


async def _basket(ctx, *, create=False):
    # Adding is the visitor's first act that needs a session; a page view made none.
    session = await visitor_session(ctx, create=create)
    if session is None:
        raise ToolError(
            "This request has no shop session, so there is no basket. The visitor "
            "must use the basket from the bookshop page in their browser."
        )
    return Basket(session)


async def _basket_result(basket, heading):
    lines, total = await basket.lines()
    items = [{"book": catalog.as_dict(book), "quantity": qty} for book, qty in lines]
    text = "\n".join(
        [heading] + [f"- {qty} x {book.title} (£{book.price})" for book, qty in lines] + [f"Total: £{total}"]
    )
    return _result(text, {"items": items, "total": str(total), "currency": "GBP"})


@tool(title="Add to basket")
async def add_to_basket(
    slug: Annotated[str, Field(description="The book's slug.", max_length=120)],
    ctx: Context,
    quantity: Annotated[int, Field(description="How many copies to add.", ge=1, le=MAX_QUANTITY)] = 1,
) -> CallToolResult:
    """Add a book to the visitor's own basket in this shop."""
    basket = await _basket(ctx, create=True)
    try:
        await basket.add(slug, quantity)
    except catalog.UnknownBook:
        raise ToolError(f"There is no book with slug {slug!r}. Use search_books to find slugs.") from None
    return await _basket_result(basket, f"Added {quantity} x {slug}. The basket now holds:")


@tool(title="View basket", read_only=True)
async def view_basket(ctx: Context) -> CallToolResult:
    """Show what is in the visitor's own basket."""
    if from_browser_page(ctx) and await visitor_session(ctx) is None:
        # A page whose visitor has added nothing yet has no session: an empty basket, not an error.
        return _result("The basket is empty.", {"items": [], "total": "0.00", "currency": "GBP"})
    basket = await _basket(ctx)
    return await _basket_result(basket, "The basket holds:")
