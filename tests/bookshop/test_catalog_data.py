"""The demo catalog file: complete, consistent, and loadable twice."""

import io
import json
from pathlib import Path

from django.core.management import call_command

from sites.bookshop.models import Book, Mood

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
