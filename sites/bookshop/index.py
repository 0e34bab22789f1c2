"""
The catalog in memory: every book with its moods, loaded from the database
once, searched without a query, and dropped whenever a book, a mood or a
book's moods change (``signals``), so that the next search loads it again.

The MCP tools and the own-mode pages both search it (``catalog.search``): a
tool call costs a scan of a hundred-odd books in memory instead of a query
through a thread, and the site's transport is what remains.

Caveat: the signals reach this process only. With several processes, a
change made in one (the admin, ``load_catalog``) shows in the others after
their restart; the demo's catalog changes only by ``load_catalog``.
"""

from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse

from sites.bookshop.models import Book, Mood


@dataclass(frozen=True)
class Entry:
    """One book, and what a search matches it by."""

    book: Book  # with its moods prefetched; shared, never to be changed
    text: str  # title, author, genre and blurb, lower-cased, for the words of a query
    moods: frozenset
    data: dict  # book_data(book), made once: its URL and moods cost more than the search


@dataclass(frozen=True)
class Index:
    """The whole catalog, in the order of ``Book.Meta.ordering`` (by title)."""

    entries: tuple
    by_slug: dict  # slug -> Entry
    mood_slugs: tuple

    def search(self, mood, words):
        """Yield the books with this mood (if any) and every word (case-insensitive)."""
        words = [word.lower() for word in words]
        for entry in self.entries:
            if (mood is None or mood in entry.moods) and all(word in entry.text for word in words):
                yield entry.book

    def data_of(self, book):
        """Return the made-once book_data of a book of this index, or None for any other instance."""
        entry = self.by_slug.get(book.slug)
        return entry.data if entry is not None and entry.book is book else None


_index = None
_generation = 0  # counts invalidations: a load that a change overtook is not kept


async def get():
    """Return the catalog's index, loading it on first use after a change."""
    global _index
    index = _index
    if index is None:
        generation = _generation
        books = [book async for book in Book.objects.prefetch_related("moods")]
        moods = [slug async for slug in Mood.objects.order_by("slug").values_list("slug", flat=True)]
        entries = tuple(
            Entry(
                book,
                "\n".join((book.title, book.author, book.genre, book.blurb)).lower(),
                frozenset(mood.slug for mood in book.moods.all()),
                book_data(book),
            )
            for book in books
        )
        index = Index(entries, {entry.book.slug: entry for entry in entries}, tuple(moods))
        if generation == _generation:
            _index = index
    return index


def current():
    """Return the index if it is loaded, else None (for code that cannot await a load)."""
    return _index


def book_data(book):
    """Return the book as plain JSON data (the tools' structured results, the pages' JSON)."""
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
        "url": reverse("bookshop:book", args=[book.slug]),
    }


def invalidate(**kwargs):
    """Drop the index now and again when the current transaction commits (a signal receiver)."""
    global _index, _generation
    _generation += 1
    _index = None
    if kwargs.get("sender") is not None:
        transaction.on_commit(invalidate)
