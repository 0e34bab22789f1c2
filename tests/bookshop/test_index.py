"""The catalog in memory follows every change to the database."""

import pytest
from asgiref.sync import async_to_sync
from django.db.models import F

from sites.bookshop import catalog, index
from sites.bookshop.models import Book, CatalogVersion, Mood


def titles(**search):
    return [book.title for book in async_to_sync(catalog.search)(**search)]


def test_a_renamed_book_is_found_by_its_new_title(catalog_db):
    assert titles(query="tolkien") == ["The Hobbit"]
    book = Book.objects.get(title="The Hobbit")
    book.title = "There and Back Again"
    book.save()
    assert titles(query="tolkien") == ["There and Back Again"]


def test_a_deleted_book_is_no_longer_found(catalog_db):
    Book.objects.filter(title="The Hobbit").delete()
    assert titles(query="tolkien") == []


def test_a_new_mood_and_a_change_of_a_books_moods_are_searchable_at_once(catalog_db):
    with pytest.raises(catalog.UnknownMood):
        titles(mood="wistful")
    wistful = Mood.objects.create(slug="wistful")
    assert titles(mood="wistful") == []
    Book.objects.get(title="The Hobbit").moods.add(wistful)
    assert titles(mood="wistful") == ["The Hobbit"]
    assert "wistful" in async_to_sync(catalog.mood_slugs)()


def test_words_match_in_any_case_and_results_come_by_title(catalog_db):
    assert titles(query="TOLKIEN") == titles(query="tolkien")
    found = titles(limit=20)
    assert found == sorted(found) and len(found) == 20


@pytest.fixture
def catalog_db(catalog):
    """The demo catalog, in a database this test may change."""


def counted_changes():
    return CatalogVersion.objects.get(pk=1).number


def test_every_kind_of_change_is_counted_in_the_database(catalog_db):
    before = counted_changes()
    book = Book.objects.get(title="The Hobbit")
    book.title = "There and Back Again"
    book.save()
    book.moods.add(Mood.objects.create(slug="wistful"))
    Book.objects.filter(title="Dune").delete()
    assert counted_changes() >= before + 4  # the save, the new mood, the moods' change, the delete


def test_a_change_made_by_another_process_shows_at_the_next_check(catalog_db, monkeypatch):
    assert titles(query="tolkien") == ["The Hobbit"]
    # Another process's change: no signal here, only the count it stored.
    Book.objects.filter(title="The Hobbit").update(title="There and Back Again")
    CatalogVersion.objects.filter(pk=1).update(number=F("number") + 1)
    assert titles(query="tolkien") == ["The Hobbit"], "checked at most once every RECHECK_SECONDS"
    monkeypatch.setattr(index, "RECHECK_SECONDS", 0.0)
    assert titles(query="tolkien") == ["There and Back Again"]


def test_an_unchanged_count_keeps_the_index_loaded(catalog_db, monkeypatch):
    monkeypatch.setattr(index, "RECHECK_SECONDS", 0.0)
    async_to_sync(index.get)()
    loaded = index.current()
    titles(query="tolkien")
    assert index.current() is loaded


def test_a_plural_or_another_form_of_a_word_finds_the_same_books(catalog):
    assert titles(query="dragon") == ["Guards! Guards!", "The Girl with the Dragon Tattoo", "The Hobbit"]
    assert titles(query="dragons") == titles(query="dragon")
    assert titles(query="Dragons") == titles(query="dragon")
    assert titles(query="wizards") == titles(query="wizard") != []


def test_a_mood_typed_as_a_word_finds_the_books_of_that_mood(catalog):
    funny = titles(mood="funny", limit=20)
    assert titles(query="funny", limit=20) == funny
    assert titles(query="funny books", limit=20) == funny  # "books" narrows nothing
    assert set(titles(query="funny wizard", limit=20)) <= set(funny)


def test_part_of_a_word_still_finds_it_and_a_query_of_filler_finds_everything(catalog):
    assert titles(query="tolk") == ["The Hobbit"]
    assert titles(query="a book", limit=20) == titles(limit=20)
