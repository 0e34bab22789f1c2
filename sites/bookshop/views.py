from django.http import Http404
from django.shortcuts import render

from sites.bookshop import catalog
from sites.bookshop.models import Book


async def _ensure_session(request):
    # The assistant's basket tools find the visitor by the session cookie that
    # the page's fetch to /api/mcp carries, so every shop page makes sure one exists.
    if request.session.session_key is None:
        await request.session.acreate()


async def index(request):
    """Show the catalog."""
    await _ensure_session(request)
    books = [book async for book in Book.objects.prefetch_related("moods")]
    return render(request, "bookshop/index.html", {"books": books})


async def book(request, slug):
    """Show one book."""
    await _ensure_session(request)
    try:
        found = await catalog.get(slug)
    except catalog.UnknownBook:
        raise Http404("No such book.") from None
    return render(request, "bookshop/book.html", {"book": found})
