"""
The docs site beside the demos, in development: ``make docs`` builds it into
``docs/_build/html`` (``settings.DOCS_ROOT``), and with DEBUG on the project
serves that folder at ``/docs/`` (``sites/config/urls.py``), so that each
demo's "How this page works" links to the how-to page of its pattern.

The files go out through ``django.views.static.serve``, as Django's docs serve
files in development: it is not for production, where the built folder is
published as static files of its own (or the pages are opened from the file
system, which they allow). Until the docs are built, every ``/docs/`` URL
answers a page that says how to build them, not a 404 of Django's.
"""

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import NoReverseMatch, URLPattern, path, reverse
from django.views.static import serve

app_name = "docs"

# Sphinx and Furo write inline scripts (the colour theme's) and style attributes (the icons'
# sprite), which the demos' own policy (settings.SECURE_CSP) refuses. These are the project's
# own built pages, served with DEBUG on only: inline code of theirs is allowed, nothing else's.
POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)


def page(request: HttpRequest, path: str = "") -> HttpResponseBase:
    """Serve a file of the built docs site, or say how to build it when it is not built."""
    root = Path(settings.DOCS_ROOT)
    if not (root / "index.html").is_file():
        return not_built(request, path)
    if path == "" or path.endswith("/"):
        path += "index.html"
    # serve() refuses a path out of the folder, and answers 404 for a file not in it.
    response = serve(request, path, document_root=str(root))
    response.headers["Content-Security-Policy"] = POLICY
    return response


def not_built(request: HttpRequest, path: str) -> HttpResponse:
    """Answer 404 with what to run, and where the page's Markdown source is meanwhile."""
    base = Path(settings.BASE_DIR)
    root = Path(settings.DOCS_ROOT)
    context = {
        "root": root.relative_to(base) if root.is_relative_to(base) else root,
        "source": _source(base, path),
    }
    return render(request, "docs_not_built.html", context, status=404)


def _source(base: Path, path: str) -> Path | None:
    """Return the Markdown file (from ``base``) a built page comes from, or None (not a page, not there)."""
    name = path or "index.html"
    if not name.endswith(".html"):
        return None
    docs = (base / "docs").resolve()
    source = (docs / (name.removesuffix(".html") + ".md")).resolve()
    return source.relative_to(base.resolve()) if source.is_relative_to(docs) and source.is_file() else None


def docs_url(request: HttpRequest) -> dict[str, str]:
    """Context processor: ``docs_url``, the docs site's root URL where it is served (DEBUG), else ""."""
    try:
        return {"docs_url": reverse("docs:page")}
    except NoReverseMatch:
        return {"docs_url": ""}


urlpatterns: list[URLPattern] = [
    path("", page, name="page"),
    path("<path:path>", page, name="file"),
]
