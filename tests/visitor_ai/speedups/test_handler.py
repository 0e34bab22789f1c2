"""
visitor_ai.handler.ASGIHandler, what visitor_ai.asgi serves Django's pages with:
a request's sync work runs on a thread of its own, kept for the next requests
rather than started per request, and Django's security middleware (named as
Django's in settings) runs its hooks on the event loop, but where CSRF needs
the session or a multipart body. Driven as a server drives it, over ASGI.
"""

import asyncio
import threading

import httpx
import pytest
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.urls import path
from django.views.decorators.csrf import ensure_csrf_cookie

from visitor_ai.handler import KEPT_THREADS, ASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)

SECURITY = {
    "SecurityMiddleware",
    "ContentSecurityPolicyMiddleware",
    "CsrfViewMiddleware",
    "XFrameOptionsMiddleware",
}
# Two requests' sync views meet here: each waits for the other, so they must run at once.
BOTH = threading.Barrier(2, timeout=10)


def thread(request):
    return JsonResponse({"thread": threading.get_ident()})


def together(request):
    BOTH.wait()  # raises BrokenBarrierError after its timeout when the other never comes
    return JsonResponse({"thread": threading.get_ident()})


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


def client(handler):
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=handler), base_url="http://127.0.0.1")


async def test_requests_one_after_another_run_their_sync_work_on_one_kept_thread():
    async with client(ASGIHandler()) as http:
        threads = {(await http.get("/thread")).json()["thread"] for _ in range(3)}
    assert len(threads) == 1


async def test_requests_at_once_each_run_their_sync_work_on_a_thread_of_their_own():
    async with client(ASGIHandler()) as http:
        first, second = await asyncio.gather(http.get("/together"), http.get("/together"))
    assert first.status_code == second.status_code == 200
    assert first.json()["thread"] != second.json()["thread"]


async def test_at_most_kept_threads_idle_threads_are_kept_after_a_busy_moment():
    handler = ASGIHandler()
    async with client(handler) as http:
        answers = await asyncio.gather(*(http.get("/page") for _ in range(KEPT_THREADS + 4)))
    assert {answer.status_code for answer in answers} == {200}
    assert len(handler._idle) == KEPT_THREADS


async def test_djangos_security_middleware_runs_on_the_event_loop_and_still_sets_its_headers(hops):
    async with client(ASGIHandler()) as http:
        response = await http.get("/page")
    assert response.status_code == 200
    assert not SECURITY & set(hops)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


async def test_the_csrf_check_refuses_a_post_without_its_token_and_takes_one_with_it_on_the_loop(hops):
    async with client(ASGIHandler()) as http:
        token = (await http.get("/form")).json()["token"]
        refused = await http.post("/posted", json={})
        taken = await http.post("/posted", json={}, headers={"X-CSRFToken": token})
    assert refused.status_code == 403
    assert taken.status_code == 200
    assert "CsrfViewMiddleware" not in hops


async def test_a_multipart_posts_csrf_token_is_read_in_the_thread(hops):
    async with client(ASGIHandler()) as http:
        token = (await http.get("/form")).json()["token"]
        hops.clear()
        taken = await http.post("/posted", data={"csrfmiddlewaretoken": token}, files={"f": b"x"})
    assert taken.status_code == 200
    assert "CsrfViewMiddleware" in hops


async def test_with_the_csrf_secret_in_the_session_csrf_runs_in_the_thread(settings, hops):
    settings.CSRF_USE_SESSIONS = True
    async with client(ASGIHandler()) as http:
        token = (await http.get("/form")).json()["token"]
        taken = await http.post("/posted", json={}, headers={"X-CSRFToken": token})
        refused = await http.post("/posted", json={}, headers={"X-CSRFToken": "x" * 32})
    assert taken.status_code == 200 and refused.status_code == 403
    assert "CsrfViewMiddleware" in hops


def test_settings_keep_naming_djangos_security_middleware(settings):
    # check --deploy finds each by this name; the handler loads its loop subclass in its place.
    for name in (
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.csp.ContentSecurityPolicyMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ):
        assert name in settings.MIDDLEWARE
    before = list(settings.MIDDLEWARE)
    ASGIHandler()
    assert before == settings.MIDDLEWARE
