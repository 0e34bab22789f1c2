"""Keep the in-memory catalog (``index``) in step with the database."""

from django.db.models.signals import m2m_changed, post_delete, post_save

from sites.bookshop import index
from sites.bookshop.models import Book, Mood


def connect():
    """Drop the catalog's index whenever a book, a mood or a book's moods change."""
    for model in (Book, Mood):
        post_save.connect(
            index.invalidate, sender=model, dispatch_uid=f"bookshop-index-save-{model.__name__}"
        )
        post_delete.connect(
            index.invalidate, sender=model, dispatch_uid=f"bookshop-index-delete-{model.__name__}"
        )
    m2m_changed.connect(index.invalidate, sender=Book.moods.through, dispatch_uid="bookshop-index-moods")
