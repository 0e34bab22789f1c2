"""
The catalog in memory: every book with its moods, loaded from the database
once, searched without a query, and dropped whenever a book, a mood or a
book's moods change (``signals``), so that the next search loads it again.

The MCP tools and the own-mode pages both search it (``catalog.search``): a
tool call costs a scan of a hundred-odd books in memory instead of a query
through a thread, and the site's transport is what remains.

Several processes: the signals reach the process that made the change only,
so they also count it in the database (``CatalogVersion``, in the change's
own transaction), and each process compares that count with its index's at
most once every RECHECK_SECONDS. An admin change shows at once in the process
that made it and within RECHECK_SECONDS in every other, for one small query a
second per process rather than one per search. (A channel-layer broadcast
would cost nothing per search, but the layer drops messages by design and a
lost one would leave a process stale for good.)
"""

import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.urls import reverse

from sites.bookshop import words
from sites.bookshop.models import Book, CatalogVersion, Mood

RECHECK_SECONDS = 1.0


@dataclass(frozen=True)
class Entry:
    """One book, and what a search matches it by."""

    book: Book  # with its moods prefetched; shared, never to be changed
    text: str  # title, author, genre and blurb, lower-cased, for a query's word typed in part
    stems: frozenset  # the stems of that text and of the book's moods (words.py), for a query's words
    moods: frozenset
    data: dict  # book_data(book), made once: its URL and moods cost more than the search


@dataclass(frozen=True)
class Index:
    """The whole catalog, in the order of ``Book.Meta.ordering`` (by title)."""

    entries: tuple
    by_slug: dict  # slug -> Entry
    mood_slugs: tuple

    def search(self, mood, query):
        """Yield the books with this mood (if any) and every word of the query: a word matches a book
        with a word of the same stem ("dragons", "dragon"), a mood of that name, or as part of a word."""
        wanted = words.terms(query)
        for entry in self.entries:
            if (mood is None or mood in entry.moods) and all(
                stem in entry.stems or word in entry.text for word, stem in wanted
            ):
                yield entry.book

    def data_of(self, book):
        """Return the made-once book_data of a book of this index, or None for any other instance."""
        entry = self.by_slug.get(book.slug)
        return entry.data if entry is not None and entry.book is book else None


_index = None
_generation = 0  # counts invalidations: a load that a change overtook is not kept
_version = None  # the database's count of changes when _index was loaded
_checked = 0.0  # time.monotonic() of the last comparison with the database's count


async def get():
    """Return the catalog's index, loading it on first use after a change here or in another process."""
    global _index, _version, _checked
    if _index is not None and time.monotonic() - _checked >= RECHECK_SECONDS:
        _checked = time.monotonic()
        if await _stored_version() != _version:
            _drop()
    index = _index
    if index is None:
        generation = _generation
        # Read before the books: a change committed during the load makes the next check reload.
        version = await _stored_version()
        books = [book async for book in Book.objects.prefetch_related("moods")]
        moods = [slug async for slug in Mood.objects.order_by("slug").values_list("slug", flat=True)]
        entries = tuple(_entry(book) for book in books)
        index = Index(entries, {entry.book.slug: entry for entry in entries}, tuple(moods))
        if generation == _generation:
            _index, _version, _checked = index, version, time.monotonic()
    return index


def _entry(book):
    text = "\n".join((book.title, book.author, book.genre, book.blurb))
    moods = frozenset(mood.slug for mood in book.moods.all())
    return Entry(book, text.lower(), words.stems(" ".join((text, *moods))), moods, book_data(book))


async def _stored_version():
    return await CatalogVersion.objects.filter(pk=1).values_list("number", flat=True).afirst()


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
    """Drop the index now and again when the current transaction commits; as a signal receiver, count the change."""
    _drop()
    if kwargs.get("sender") is not None:
        _count_change(kwargs.get("using"))
        transaction.on_commit(_drop)


def _count_change(using):
    """Add one to the catalog's count of changes, in the transaction of the change itself."""
    if not CatalogVersion.objects.using(using).filter(pk=1).update(number=F("number") + 1):
        CatalogVersion.objects.using(using).get_or_create(pk=1, defaults={"number": 1})


def _drop():
    global _index, _generation
    _generation += 1
    _index = None
