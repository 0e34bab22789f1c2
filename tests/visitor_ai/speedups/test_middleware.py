"""
The loop_middleware and static_files speed-ups: with Django's middleware named
as Django's in settings, the speed-ups' handler loads their event-loop
subclasses, and a request hops to a thread only where a hook may block (the
session's save, stored messages, CSRF's session secret or multipart token).
WhiteNoise's lookup runs on the loop; the file is read in a thread. Driven as a
server drives it, over ASGI; Django's own handler, for comparison, hops for each.
"""

import httpx
import pytest
from django.core.handlers.asgi import ASGIHandler as DjangosHandler
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import path

from tests.test_middleware import recall, remember, shown, warn
from visitor_ai.speedups.handler import STATIC_FILES, ASGIHandler
from visitor_ai.speedups.middleware import ON_THE_LOOP
from visitor_ai.speedups.staticfiles import StaticFilesMiddleware

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = b"<p>A page.</p>"


async def page(request):
    return HttpResponse(PAGE)


urlpatterns = [
    path("page", page),
    path("remember", remember),
    path("recall", recall),
    path("warn", warn),
    path("shown", shown),
]


@pytest.fixture(autouse=True)
def these_urls(settings):
    settings.ROOT_URLCONF = __name__


def client(handler):
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=handler), base_url="http://127.0.0.1")


def django_hops(seen):
    """Return the hops made for Django's own middleware classes (the demos' own are theirs)."""
    ours = {name.rpartition(".")[2] for name in ON_THE_LOOP}
    return {name for name in seen if name in ours}


async def async_get_response(request):
    return HttpResponse(PAGE)


async def test_djangos_own_handler_hops_for_each_of_djangos_middleware(hops):
    async with client(DjangosHandler()) as http:
        assert (await http.get("/page")).status_code == 200
    # Which of Django's classes are async-native already varies by release; these two are not.
    assert {"SessionMiddleware", "CsrfViewMiddleware"} <= django_hops(hops)


async def test_with_loop_middleware_a_page_hops_for_none_of_djangos_middleware(hops):
    async with client(ASGIHandler(kept_threads=None, replaced=ON_THE_LOOP)) as http:
        assert (await http.get("/page")).status_code == 200
    assert django_hops(hops) == set()


async def test_with_loop_middleware_a_session_is_saved_in_one_hop_and_read_back(hops):
    async with client(ASGIHandler(kept_threads=None, replaced=ON_THE_LOOP)) as http:
        await http.get("/remember")
        assert django_hops(hops) == {"SessionMiddleware"}  # the save, in a thread
        hops.clear()
        assert (await http.get("/recall")).json() == {"seen": "Peru"}
    assert django_hops(hops) == set()  # read, not modified: nothing to save


async def test_with_loop_middleware_a_message_added_in_one_request_is_shown_in_the_next():
    async with client(ASGIHandler(kept_threads=None, replaced=ON_THE_LOOP)) as http:
        await http.get("/warn")
        assert (await http.get("/shown")).json() == {"messages": ["Careful: that was the last question."]}
        assert (await http.get("/shown")).json() == {"messages": []}  # shown once


async def test_with_static_files_whitenoise_is_loaded_as_the_speedups_middleware(settings):
    settings.MIDDLEWARE = ["whitenoise.middleware.WhiteNoiseMiddleware", *settings.MIDDLEWARE]
    settings.WHITENOISE_USE_FINDERS = True
    handler = ASGIHandler(kept_threads=None, replaced=STATIC_FILES)
    handler.load_middleware(is_async=True)
    assert settings.MIDDLEWARE[0] == "whitenoise.middleware.WhiteNoiseMiddleware"  # put back as it was
    async with client(handler) as http:
        served = await http.get(f"/{settings.STATIC_URL.strip('/')}/aiconnect/index.js")
    assert served.status_code == 200 and b"AiConnect" in served.content


async def test_static_files_are_read_in_a_thread_and_other_requests_pass_without_one(settings, hops):
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = False
    middleware = StaticFilesMiddleware(async_get_response)
    passed = await middleware(RequestFactory().get("/bookshop/"))
    assert passed.content == PAGE and hops == []
    served = await middleware(RequestFactory().get(f"/{settings.STATIC_URL.strip('/')}/aiconnect/index.js"))
    assert served.status_code == 200 and b"AiConnect" in served.content
