"""
The bookshop's pages. The catalog and basket logic lives in catalog.py and
basket.py, shared with the MCP tools, so own mode (no wallet) and the visitor's
AI see the same shop.

A page view stores no session (DESIGN.md, "Security rules"): the first basket
add does, here (the form) or through the assistant's add_to_basket tool, whose
answer sets the same session cookie (mcp_server.visitor_sessions).
"""

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
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

# The suggestions beside the question: each the shop's own search by a mood (own mode, no script),
# or these words asked of the visitor's AI once it is connected. Moods the catalog has.
SUGGESTIONS = (
    ("calm", "A calm book for tonight"),
    ("funny", "Something funny"),
    ("adventurous", "A big adventure"),
    ("cosy", "A cosy read for a rainy day"),
)


# Django's Paginator in a thread: AsyncPaginator is Django 6.0's, and the framework's tests run
# this project on Django 5.2 too (`make matrix`).
@sync_to_async
def _catalog_page(number):
    """Return the catalog's page ``number`` (the first for a bad number, the last past the end)."""
    page = Paginator(Book.objects.prefetch_related("moods"), CATALOG_PAGE_SIZE).get_page(number)
    return {
        "books": list(page.object_list),
        "number": page.number,
        "pages": page.paginator.num_pages,
        "count": page.paginator.count,
        "start": page.start_index(),
        "end": page.end_index(),
        "previous": page.number - 1 if page.has_previous() else None,
        "next": page.number + 1 if page.has_next() else None,
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
        "suggestions": SUGGESTIONS,
        "basket_count": await Basket(request.session).count(),
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
    context = {"book": found, "basket_count": await Basket(request.session).count()}
    return render(request, "bookshop/book.html", context)


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
    """Show the visitor's basket: each book with its cover, its copies to change, and a way to remove it."""
    lines, total = await Basket(request.session).lines()
    context = {"lines": lines, "total": total, "quantities": range(1, MAX_QUANTITY + 1)}
    return render(request, "bookshop/basket.html", context)


@require_POST
async def basket_change(request):
    """Change how many copies of a book the basket holds, or remove it ("remove"); back to the basket."""
    slug = request.POST.get("slug", "")
    try:
        quantity = 0 if request.POST.get("remove") else int(request.POST.get("quantity", ""))
        title = (await catalog.get(slug)).title
        await Basket(request.session).set(slug, quantity)
    except (ValueError, catalog.UnknownBook):
        messages.error(
            request,
            f"That change could not be made: choose 1 to {MAX_QUANTITY} copies of a book in the basket.",
        )
        return redirect("bookshop:basket")
    if quantity:
        messages.success(
            request, f"“{title}”: {quantity} cop{'y' if quantity == 1 else 'ies'} in your basket."
        )
    else:
        messages.success(request, f"Removed “{title}” from your basket.")
    return redirect("bookshop:basket")


@require_POST
async def checkout(request):
    """The demo's checkout: it says plainly that nothing is sold here, and keeps the basket as it is."""
    messages.info(
        request,
        "This shop is a demo: nothing was ordered and nothing was charged. Your books stay in your basket.",
        extra_tags="checkout",  # the basket shows the shop's end picture with it
    )
    return redirect("bookshop:basket")


@require_POST
async def basket_add(request):
    """Add a book to the visitor's basket (own mode's form).

    The page's script asks for JSON and stays where the visitor is; a plain form post goes back to
    the book's card (its anchor) with the confirmation shown there.
    """
    basket = Basket(request.session)
    try:
        quantity = min(max(int(request.POST.get("quantity", 1)), 1), MAX_QUANTITY)
        slug = request.POST.get("slug", "")
        copies = await basket.add(slug, quantity)
        title = (await catalog.get(slug)).title
    except (ValueError, catalog.UnknownBook):
        if _wants_json(request):
            return JsonResponse(
                {"error": "bad-book", "message": "No such book, or a bad quantity."}, status=400
            )
        return HttpResponse("No such book, or a bad quantity.", status=400, content_type="text/plain")
    count = await basket.count()
    if _wants_json(request):
        return JsonResponse({"slug": slug, "title": title, "copies": copies, "count": count})
    # Shown beside the book's button on the page the visitor comes back to (its extra tag: the slug).
    messages.success(request, added_text(title, count), extra_tags=slug)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return redirect("bookshop:basket")
    return redirect(back)


def added_text(title, count):
    """Return the confirmation of an add: the book, and what the basket holds now."""
    return f"Added “{title}” to your basket ({count} book{'' if count == 1 else 's'} in it)."


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")
