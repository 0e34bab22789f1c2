"""
The bookshop's pages. The catalog and basket logic lives in catalog.py and
basket.py, shared with the MCP tools, so own mode (no wallet) and the visitor's
AI see the same shop.

A page view stores no session (DESIGN.md, "Security rules"): the first basket
add does, here (the form) or through the assistant's add_to_basket tool, whose
answer sets the same session cookie (mcp_server.visitor_sessions).
"""

from django.core.paginator import AsyncPaginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from sites.bookshop import catalog
from sites.bookshop.basket import MAX_QUANTITY, Basket
from sites.bookshop.covers import cover_svg
from sites.bookshop.models import Book
from sites.home.snippet import integration_snippet

# Books per page of the catalog: the page lists one page of it, with plain links to
# the others, rather than every book at once (its HTML was 93 KB with 60 books).
CATALOG_PAGE_SIZE = 12


async def _catalog_page(number):
    """Return the catalog's page ``number`` (the first for a bad number, the last past the end)."""
    page = await AsyncPaginator(Book.objects.prefetch_related("moods"), CATALOG_PAGE_SIZE).aget_page(number)
    return {
        "books": await page.aget_object_list(),
        "number": page.number,
        "pages": await page.paginator.anum_pages(),
        "count": await page.paginator.acount(),
        "start": await page.astart_index(),
        "end": await page.aend_index(),
        "previous": page.number - 1 if await page.ahas_previous() else None,
        "next": page.number + 1 if await page.ahas_next() else None,
    }


@require_GET
async def index(request):
    """Show the catalog, the assistant, and the own-mode search."""
    mood, query = request.GET.get("mood") or None, request.GET.get("q", "").strip()[:200] or None
    results, search_error = None, None
    if mood or query:
        try:
            results = await catalog.search(mood=mood, query=query, limit=catalog.MAX_RESULTS)
        except catalog.UnknownMood:
            search_error = "There is no such mood; pick one from the list."
    context = {
        "catalog": await _catalog_page(request.GET.get("page")),
        "moods": await catalog.mood_slugs(),
        "mood": mood,
        "query": query or "",
        "results": results,
        "search_error": search_error,
        "snippet": integration_snippet("bookshop/assistant.js"),
        "browser_agent_snippet": integration_snippet("bookshop/browser-agent.js"),
    }
    return render(request, "bookshop/index.html", context)


@require_GET
async def book(request, slug):
    """Show one book."""
    try:
        found = await catalog.get(slug)
    except catalog.UnknownBook:
        raise Http404("No such book.") from None
    return render(request, "bookshop/book.html", {"book": found})


@require_GET
async def cover(request, slug):
    """Return the generated SVG cover of a book."""
    try:
        found = await catalog.get(slug)
    except catalog.UnknownBook:
        raise Http404("No such book.") from None
    response = HttpResponse(cover_svg(found), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
async def basket(request):
    """Show the visitor's basket."""
    lines, total = await Basket(request.session).lines()
    return render(request, "bookshop/basket.html", {"lines": lines, "total": total})


@require_POST
async def basket_add(request):
    """Add a book to the visitor's basket (own mode's form), then go back."""
    try:
        quantity = min(max(int(request.POST.get("quantity", 1)), 1), MAX_QUANTITY)
        await Basket(request.session).add(request.POST.get("slug", ""), quantity)
    except (ValueError, catalog.UnknownBook):
        return HttpResponse("No such book, or a bad quantity.", status=400, content_type="text/plain")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "bookshop:basket"
    return redirect(back)
