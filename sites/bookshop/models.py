from django.db import models


class Mood(models.Model):
    """A feeling a reader can search by ("calm", "dark", ...)."""

    slug = models.SlugField(unique=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.slug


class Book(models.Model):
    """A book in the demo catalog (sites/bookshop/catalog.json)."""

    slug = models.SlugField(unique=True, max_length=120)
    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200)
    year = models.IntegerField(help_text="Year of first publication.")
    pages = models.PositiveIntegerField()
    price = models.DecimalField(max_digits=6, decimal_places=2, help_text="In GBP.")
    genre = models.CharField(max_length=60)
    blurb = models.TextField()
    moods = models.ManyToManyField(Mood, related_name="books")

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return f"{self.title} by {self.author}"


class CatalogVersion(models.Model):
    """One row counting the catalog's changes, so that every server process sees when its index is stale (``index``)."""

    number = models.BigIntegerField(default=0)

    def __str__(self):
        return f"catalog version {self.number}"
