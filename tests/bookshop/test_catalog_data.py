"""The demo catalog file: complete, consistent, and loadable twice."""

import io
import json
from pathlib import Path

from django.core.management import call_command

from sites.bookshop.models import Book, CatalogVersion, Mood

CATALOG = Path(__file__).resolve().parents[2] / "sites" / "bookshop" / "catalog.json"


def test_catalog_has_at_least_sixty_distinct_books_with_every_field():
    entries = json.loads(CATALOG.read_text(encoding="utf-8"))
    assert len(entries) >= 60
    assert len({entry["slug"] for entry in entries}) == len(entries)
    keys = {"slug", "title", "author", "year", "pages", "price", "genre", "moods", "blurb"}
    assert all(set(entry) == keys for entry in entries)


def test_load_catalog_is_idempotent(db):
    call_command("load_catalog", stdout=io.StringIO())
    first = (Book.objects.count(), Mood.objects.count())
    call_command("load_catalog", stdout=io.StringIO())
    assert (Book.objects.count(), Mood.objects.count()) == first
    assert first[0] >= 60


def test_load_catalog_puts_back_a_changed_book_and_its_moods_and_counts_one_change(db):
    call_command("load_catalog", stdout=io.StringIO())
    book = Book.objects.get(slug="the-hobbit")
    moods = set(book.moods.values_list("slug", flat=True))
    book.title = "There and Back Again"
    book.save()
    book.moods.set([Mood.objects.create(slug="not-in-the-catalog")])
    before = CatalogVersion.objects.get().number

    call_command("load_catalog", stdout=io.StringIO())

    book.refresh_from_db()
    assert book.title == "The Hobbit"
    assert set(book.moods.values_list("slug", flat=True)) == moods
    assert CatalogVersion.objects.get().number == before + 1


def test_load_catalog_over_an_unchanged_catalog_counts_no_change(db):
    call_command("load_catalog", stdout=io.StringIO())
    before = CatalogVersion.objects.get().number

    call_command("load_catalog", stdout=io.StringIO())

    assert CatalogVersion.objects.get().number == before
