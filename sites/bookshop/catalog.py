"""
Catalog queries shared by the MCP tools and the shop's own pages (own mode), so
that a visitor without a wallet gets exactly what the model gets.
"""

from django.db.models import Q
from django.urls import reverse

from sites.bookshop.models import Book, Mood

MAX_RESULTS = 20


class UnknownMood(LookupError):
    """Raised when a search names a mood the catalog does not have."""


class UnknownBook(LookupError):
    """Raised when a slug names no book in the catalog."""


async def mood_slugs():
    """Return every mood slug, sorted."""
    return [slug async for slug in Mood.objects.order_by("slug").values_list("slug", flat=True)]


async def search(mood=None, query=None, limit=5):
    """Return up to `limit` books with the mood and every word of the query."""
    books = Book.objects.prefetch_related("moods")
    if mood:
        if not await Mood.objects.filter(slug=mood).aexists():
            raise UnknownMood(mood)
        books = books.filter(moods__slug=mood)
    for word in (query or "").split():
        books = books.filter(
            Q(title__icontains=word)
            | Q(author__icontains=word)
            | Q(genre__icontains=word)
            | Q(blurb__icontains=word)
        )
    return [book async for book in books.distinct()[: min(limit, MAX_RESULTS)]]


async def get(slug):
    """Return the book with this slug."""
    try:
        return await Book.objects.prefetch_related("moods").aget(slug=slug)
    except Book.DoesNotExist:
        raise UnknownBook(slug) from None


def as_dict(book):
    """Return the book as plain JSON data (the tools' structured results)."""
    return {
        "slug": book.slug,
        "title": book.title,
        "author": book.author,
        "year": book.year,
        "pages": book.pages,
        "price": str(book.price),
        "currency": "GBP",
        "genre": book.genre,
        "moods": [mood.slug for mood in book.moods.all()],
        "blurb": book.blurb,
        "url": book_url(book.slug),
    }


def book_url(slug):
    """Return the path of the book's page."""
    return reverse("bookshop:book", args=[slug])
