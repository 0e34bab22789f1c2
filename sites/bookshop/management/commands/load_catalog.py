import json
from decimal import Decimal
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from sites.bookshop.models import Book, Mood

CATALOG = Path(__file__).resolve().parents[2] / "catalog.json"


class Command(BaseCommand):
    help = "Load (or refresh) the demo book catalog from sites/bookshop/catalog.json."

    def add_arguments(self, parser):
        parser.add_argument("--file", type=Path, default=CATALOG, help="A catalog JSON file.")

    @transaction.atomic
    def handle(self, *args, file, **options):
        try:
            entries = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read the catalog {file}: {error}") from error
        # Each mood once, in the order the catalog first names it (most are shared by many books).
        slugs = dict.fromkeys(slug for entry in entries for slug in entry["moods"])
        moods = {slug: Mood.objects.get_or_create(slug=slug)[0] for slug in slugs}
        for entry in entries:
            book, _ = Book.objects.update_or_create(
                slug=entry["slug"],
                defaults={
                    "title": entry["title"],
                    "author": entry["author"],
                    "year": entry["year"],
                    "pages": entry["pages"],
                    "price": Decimal(entry["price"]),
                    "genre": entry["genre"],
                    "blurb": entry["blurb"],
                },
            )
            book.moods.set([moods[slug] for slug in entry["moods"]])
        self.stdout.write(f"Catalog: {len(entries)} books, {len(moods)} moods.")
