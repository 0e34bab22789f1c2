from django.http import Http404
from django.shortcuts import render

from sites.bookshop import catalog
from sites.bookshop.models import Book


async def index(request):
    """Show the catalog."""
    books = [book async for book in Book.objects.prefetch_related("moods")]
    return render(request, "bookshop/index.html", {"books": books})


async def book(request, slug):
    """Show one book."""
    try:
        found = await catalog.get(slug)
    except catalog.UnknownBook:
        raise Http404("No such book.") from None
    return render(request, "bookshop/book.html", {"book": found})
