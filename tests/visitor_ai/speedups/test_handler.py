"""
visitor_ai.speedups.handler.ASGIHandler, what visitor_ai.asgi serves Django's
pages with when a site turns on request_threads or loop_middleware: a
request's sync work runs on a thread of its own, kept for the next requests
rather than started per request, and Django's middleware (named as Django's in
settings) runs its hooks on the event loop, but where CSRF needs the session
or a multipart body. Driven as a server drives it, over ASGI.
"""

import asyncio
import threading

import django
import httpx
import pytest
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.urls import path
from django.views.decorators.csrf import ensure_csrf_cookie

from visitor_ai.speedups.handler import ASGIHandler
from visitor_ai.speedups.middleware import ON_THE_LOOP

pytestmark = pytest.mark.django_db(transaction=True)

KEPT_THREADS = 16
SECURITY = {
    "SecurityMiddleware",
    "ContentSecurityPolicyMiddleware",
    "CsrfViewMiddleware",
    "XFrameOptionsMiddleware",
}
# Django 6.0 brought the Content-Security-Policy middleware.
HAS_CSP = django.VERSION >= (6, 0)
# Two requests' sync views meet here: each waits for the other, so they must run at once.
BOTH = threading.Barrier(2, timeout=10)


def thread(request):
    # The name, not the ident: a new thread may reuse an ended one's ident.
    return JsonResponse({"thread": threading.current_thread().name})


def together(request):
    BOTH.wait()  # raises BrokenBarrierError after its timeout when the other never comes
    return JsonResponse({"thread": threading.get_ident()})  # both alive at once: idents differ


async def page(request):
    return HttpResponse("<p>a page</p>")


@ensure_csrf_cookie
async def form(request):
    return JsonResponse({"token": get_token(request)})


async def posted(request):
    return JsonResponse({"ok": True})


urlpatterns = [
    path("thread", thread),
    path("together", together),
    path("page", page),
    path("form", form),
    path("posted", posted),
]


@pytest.fixture(autouse=True)
def these_urls(settings):
    settings.ROOT_URLCONF = __name__


def on_the_loop():
    """Return the handler as the loop_middleware speed-up builds it (threads as Django starts them)."""
    return ASGIHandler(kept_threads=None, replaced=ON_THE_LOOP)


def client(handler):
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=handler), base_url="http://127.0.0.1")


async def test_requests_one_after_another_run_their_sync_work_on_one_kept_thread():
    async with client(ASGIHandler(kept_threads=KEPT_THREADS)) as http:
        threads = {(await http.get("/thread")).json()["thread"] for _ in range(3)}
    assert len(threads) == 1


async def test_requests_at_once_each_run_their_sync_work_on_a_thread_of_their_own():
    async with client(ASGIHandler(kept_threads=KEPT_THREADS)) as http:
        first, second = await asyncio.gather(http.get("/together"), http.get("/together"))
    assert first.status_code == second.status_code == 200
    assert first.json()["thread"] != second.json()["thread"]


async def test_at_most_kept_threads_idle_threads_are_kept_after_a_busy_moment():
    handler = ASGIHandler(kept_threads=KEPT_THREADS)
    async with client(handler) as http:
        answers = await asyncio.gather(*(http.get("/page") for _ in range(KEPT_THREADS + 4)))
    assert {answer.status_code for answer in answers} == {200}
    assert len(handler._idle) == KEPT_THREADS


async def test_with_django_starting_threads_each_request_gets_a_new_one():
    async with client(ASGIHandler(kept_threads=None)) as http:
        threads = {(await http.get("/thread")).json()["thread"] for _ in range(3)}
    assert len(threads) == 3


async def test_djangos_security_middleware_runs_on_the_event_loop_and_still_sets_its_headers(hops):
    async with client(on_the_loop()) as http:
        response = await http.get("/page")
    assert response.status_code == 200
    assert not SECURITY & set(hops)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if HAS_CSP:
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]


async def test_the_csrf_check_refuses_a_post_without_its_token_and_takes_one_with_it_on_the_loop(hops):
    async with client(on_the_loop()) as http:
        token = (await http.get("/form")).json()["token"]
        refused = await http.post("/posted", json={})
        taken = await http.post("/posted", json={}, headers={"X-CSRFToken": token})
    assert refused.status_code == 403
    assert taken.status_code == 200
    assert "CsrfViewMiddleware" not in hops


async def test_a_multipart_posts_csrf_token_is_read_in_the_thread(hops):
    async with client(on_the_loop()) as http:
        token = (await http.get("/form")).json()["token"]
        hops.clear()
        taken = await http.post("/posted", data={"csrfmiddlewaretoken": token}, files={"f": b"x"})
    assert taken.status_code == 200
    assert "CsrfViewMiddleware" in hops


async def test_with_the_csrf_secret_in_the_session_csrf_runs_in_the_thread(settings, hops):
    settings.CSRF_USE_SESSIONS = True
    async with client(on_the_loop()) as http:
        token = (await http.get("/form")).json()["token"]
        taken = await http.post("/posted", json={}, headers={"X-CSRFToken": token})
        refused = await http.post("/posted", json={}, headers={"X-CSRFToken": "x" * 32})
    assert taken.status_code == 200 and refused.status_code == 403
    assert "CsrfViewMiddleware" in hops


def test_settings_keep_naming_djangos_security_middleware(settings):
    # check --deploy finds each by this name; the handler loads its loop subclass in its place.
    for name in (
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ):
        assert name in settings.MIDDLEWARE
    before = list(settings.MIDDLEWARE)
    on_the_loop()
    assert before == settings.MIDDLEWARE
