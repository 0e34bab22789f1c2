"""
Catalog queries shared by the MCP tools and the shop's own pages (own mode), so
that a visitor without a wallet gets exactly what the model gets. Searches
run on the catalog in memory (``index``).
"""

from sites.bookshop import index

MAX_RESULTS = 20


class UnknownMood(LookupError):
    """Raised when a search names a mood the catalog does not have."""


class UnknownBook(LookupError):
    """Raised when a slug names no book in the catalog."""


async def mood_slugs():
    """Return every mood slug, sorted."""
    return list((await index.get()).mood_slugs)


async def search(mood=None, query=None, limit=5):
    """Return up to `limit` books with the mood and every word of the query (in any case, any form of
    the word, or a mood's name), by title."""
    catalog = await index.get()
    if mood and mood not in catalog.mood_slugs:
        raise UnknownMood(mood)
    found = catalog.search(mood or None, query or "")
    # Not strict: the range only takes the first few of what was found.
    return [book for book, _ in zip(found, range(min(limit, MAX_RESULTS)), strict=False)]


async def get(slug):
    """Return the book with this slug."""
    try:
        return (await index.get()).by_slug[slug].book
    except KeyError:
        raise UnknownBook(slug) from None


def as_dict(book):
    """Return the book as plain JSON data (the tools' structured results)."""
    loaded = index.current()
    data = loaded.data_of(book) if loaded is not None else None
    if data is None:
        return index.book_data(book)
    return {**data, "moods": list(data["moods"])}  # a copy: the index's own stays as it is
