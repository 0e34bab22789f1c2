import json
from decimal import Decimal
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from sites.bookshop import index
from sites.bookshop.models import Book, Mood

CATALOG = Path(__file__).resolve().parents[2] / "catalog.json"
FIELDS = ("title", "author", "year", "pages", "price", "genre", "blurb")


class Command(BaseCommand):
    help = "Load (or refresh) the demo book catalog from sites/bookshop/catalog.json."

    def add_arguments(self, parser):
        parser.add_argument("--file", type=Path, default=CATALOG, help="A catalog JSON file.")

    # In bulk, a few queries in all rather than a few per book: every test server and many tests
    # load the catalog, and row by row each load cost a hundred-odd saves, each with its signals.
    @transaction.atomic
    def handle(self, *args, file, **options):
        try:
            entries = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read the catalog {file}: {error}") from error
        # Each mood once, in the order the catalog first names it (most are shared by many books).
        slugs = dict.fromkeys(slug for entry in entries for slug in entry["moods"])
        known = set(Mood.objects.filter(slug__in=slugs).values_list("slug", flat=True))
        Mood.objects.bulk_create([Mood(slug=slug) for slug in slugs if slug not in known])
        # Read back rather than taken from bulk_create: not every database returns the new keys.
        moods = dict(Mood.objects.filter(slug__in=slugs).values_list("slug", "pk"))

        book_slugs = [entry["slug"] for entry in entries]
        stored = {book.slug: book for book in Book.objects.filter(slug__in=book_slugs)}
        new, changed = [], []
        for entry in entries:
            values = {field: entry[field] for field in FIELDS} | {"price": Decimal(entry["price"])}
            book = stored.get(entry["slug"])
            if book is None:
                new.append(Book(slug=entry["slug"], **values))
            elif any(getattr(book, field) != value for field, value in values.items()):
                for field, value in values.items():
                    setattr(book, field, value)
                changed.append(book)
        Book.objects.bulk_create(new)
        Book.objects.bulk_update(changed, FIELDS)

        # Each book's moods become exactly the catalog's, as moods.set() would make them.
        books = dict(Book.objects.filter(slug__in=book_slugs).values_list("slug", "pk"))
        links = Book.moods.through
        wanted = {(books[entry["slug"]], moods[slug]) for entry in entries for slug in entry["moods"]}
        have = {
            (book, mood): pk
            for pk, book, mood in links.objects.filter(book__in=books.values()).values_list(
                "pk", "book", "mood"
            )
        }
        gone = [pk for pair, pk in have.items() if pair not in wanted]
        links.objects.filter(pk__in=gone).delete()
        added = wanted - have.keys()
        links.objects.bulk_create([links(book_id=book, mood_id=mood) for book, mood in added])

        # Bulk writes send no signals: the load counts as one change of the catalog, if it made any.
        if len(known) < len(slugs) or new or changed or gone or added:
            index.invalidate(sender=Book)
        self.stdout.write(f"Catalog: {len(entries)} books, {len(moods)} moods.")
