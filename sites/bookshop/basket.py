"""
The visitor's basket, kept in their Django session as {slug: quantity}.

Used by the basket tools (which find the session from the MCP request's
cookie) and by the basket page, so both always show the same basket.
"""

from decimal import Decimal

from sites.bookshop import catalog
from sites.bookshop.models import Book

SESSION_KEY = "bookshop_basket"
MAX_QUANTITY = 10


class Basket:
    """A basket bound to one visitor's session."""

    def __init__(self, session):
        self.session = session

    async def _items(self):
        return dict(await self.session.aget(SESSION_KEY, {}))

    async def add(self, slug, quantity=1):
        """Add copies of a book (capped at MAX_QUANTITY per book) and save."""
        await catalog.get(slug)  # raises UnknownBook
        items = await self._items()
        items[slug] = min(items.get(slug, 0) + quantity, MAX_QUANTITY)
        await self.session.aset(SESSION_KEY, items)
        await self.session.asave()
        return items[slug]

    async def set(self, slug, quantity):
        """Keep exactly `quantity` copies of a book (0 removes it; at most MAX_QUANTITY) and save."""
        if not 0 <= quantity <= MAX_QUANTITY:
            raise ValueError(f"quantity must be 0 to {MAX_QUANTITY}")
        items = await self._items()
        if slug not in items:
            await catalog.get(
                slug
            )  # raises UnknownBook; a book not in the basket is only added when it exists
        if quantity:
            items[slug] = quantity
        else:
            items.pop(slug, None)
        await self.session.aset(SESSION_KEY, items)
        await self.session.asave()

    async def count(self):
        """Return how many copies the basket holds, all books together."""
        return sum((await self._items()).values())

    async def lines(self):
        """Return [(book, quantity)] and the total price."""
        items = await self._items()
        books = {b.slug: b async for b in Book.objects.filter(slug__in=items).prefetch_related("moods")}
        lines = [(books[slug], qty) for slug, qty in items.items() if slug in books]
        total = sum((book.price * qty for book, qty in lines), Decimal("0.00"))
        return lines, total
