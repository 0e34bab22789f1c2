"""
The docs site beside the demos (sites/config/docs.py): with DEBUG on, /docs/ serves the folder
`make docs` builds and each demo's "How this page works" links to its how-to page there; until
the docs are built, a /docs/ URL says how to build them; without DEBUG there is no /docs/ at all
and the demos name the pages as text. A tiny folder stands for the built site here;
tests/test_docs.py checks that the real build has every page the demos link to.
"""

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ["bookshop", "geography", "twentyq"]
# The pages a built site has (their paths from docs/_build/html), as the tiny stand-in writes them.
PAGES = ["index.html", "tutorial.html", "howto/voice.html", "howto/models.html", "howto/webmcp.html"]


@pytest.fixture
def debug_urls(settings):
    """Serve the project's URLs as sites/config/urls.py declares them with DEBUG on."""
    settings.DEBUG = True
    name = "tests.home.debug_urls"
    spec = importlib.util.spec_from_file_location(name, ROOT / "sites" / "config" / "urls.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # reads settings.DEBUG as the project's own import does
    sys.modules[name] = module
    settings.ROOT_URLCONF = name
    yield
    del sys.modules[name]


@pytest.fixture
def built(settings, tmp_path):
    """A tiny built docs site (each page names its path), with a file beside it that is not the docs'."""
    root = tmp_path / "html"
    for page in PAGES:
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        (root / page).write_text(f"<!doctype html><title>{page}</title><p>built page {page}</p>")
    (tmp_path / "secret.txt").write_text("not the docs'")
    settings.DOCS_ROOT = root
    return root


def how_this_page_works_links(html):
    """Return the links of a page's "How this page works"."""
    details = html.split("<summary>How this page works</summary>", 1)[1].split("</details>", 1)[0]
    return re.findall(r'<a href="([^"]+)"', details)


@pytest.mark.parametrize("demo", DEMOS)
def test_each_demos_how_this_page_works_links_to_its_how_to_page_served_under_debug(debug_urls, built, demo):
    client = Client()
    links = how_this_page_works_links(client.get(f"/{demo}/").content.decode())
    assert links and all(link.startswith("/docs/") for link in links), links
    assert any(link.startswith("/docs/howto/") for link in links), links
    for link in links:
        response = client.get(link)
        assert response.status_code == 200, link
        page = link.removeprefix("/docs/")
        assert f"built page {page}" in b"".join(response.streaming_content).decode()
        # The built pages' inline theme script and styles are allowed; nothing from elsewhere is.
        assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_docs_root_serves_the_built_index(debug_urls, built):
    response = Client().get("/docs/")
    assert response.status_code == 200
    assert b"built page index.html" in b"".join(response.streaming_content)


def test_a_path_out_of_the_docs_folder_is_refused_and_one_not_in_it_is_not_found(debug_urls, built):
    # Django's own answer to a path out of the folder: 400 (SuspiciousFileOperation), logged.
    client = Client(raise_request_exception=False)
    for path, status in (
        ("/docs/%2e%2e/secret.txt", 400),
        ("/docs/howto/%2e%2e/%2e%2e/secret.txt", 400),
        ("/docs/howto/missing.html", 404),
    ):
        response = client.get(path)
        assert response.status_code == status, path
        assert b"not the docs'" not in response.content


def test_until_the_docs_are_built_a_docs_url_says_how_to_build_them(debug_urls, settings, tmp_path):
    settings.DOCS_ROOT = tmp_path / "not-built"
    response = Client().get("/docs/howto/voice.html")
    assert response.status_code == 404
    text = response.content.decode()
    assert "The docs are not built yet" in text and "<code>make docs</code>" in text
    assert "<code>docs/howto/voice.md</code>" in text  # where the page's text is meanwhile
    assert "Using the URLconf" not in text  # not Django's own 404 page
    # The demos still link to it: the page they open says what to run.
    links = how_this_page_works_links(Client().get("/geography/").content.decode())
    assert links == ["/docs/howto/voice.html"]


def test_a_not_built_page_names_no_source_outside_the_docs_folder(debug_urls, settings, tmp_path):
    settings.DOCS_ROOT = tmp_path / "not-built"
    text = Client().get("/docs/%2e%2e/README.html").content.decode()
    assert "The docs are not built yet" in text and "README.md" not in text


@pytest.mark.parametrize("demo", DEMOS)
def test_without_debug_there_is_no_docs_url_and_the_demos_name_their_pages_as_text(built, demo):
    client = Client()
    assert client.get("/docs/").status_code == 404
    html = client.get(f"/{demo}/").content.decode()
    assert how_this_page_works_links(html) == []
    assert re.search(r"<code>docs/(?:howto/)?[\w-]+\.md</code>", html)
