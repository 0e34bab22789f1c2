"""
The project's middleware runs on the event loop under ASGI: through Django's
own test handler (AsyncClient) a request hops to a thread only for Django's
security middleware (named as Django's in settings; the project's handler runs
it on the loop too: test_handler.py), the session's save and stored messages. It still does what it did,
under ASGI and under WSGI (Django's sync test client) alike: gzip, sessions,
messages, the 503 for an unreachable database, static files.
"""

import gzip

import pytest
from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.contrib import messages
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.test import AsyncClient, Client, RequestFactory
from django.urls import path
from django.utils.module_loading import import_string

from sites.config.compression import PageGZipMiddleware
from sites.config.unavailable import DatabaseUnavailableMiddleware
from testwallet.relay import middleware as relay
from visitor_ai.middleware import StaticFilesMiddleware

pytestmark = pytest.mark.django_db(transaction=True)

#: Django's security middleware, kept as Django's: ``check --deploy`` finds it by name. It hops.
KEPT = {
    "SecurityMiddleware",
    "ContentSecurityPolicyMiddleware",
    "CsrfViewMiddleware",
    "XFrameOptionsMiddleware",
}
PAGE = b"<p>A page long enough to be worth compressing.</p>" * 40


async def page(request):
    return HttpResponse(PAGE)


async def remember(request):
    await request.session.aset("seen", "Peru")
    return JsonResponse({})


async def recall(request):
    return JsonResponse({"seen": await request.session.aget("seen")})


async def warn(request):
    messages.warning(request, "Careful: that was the last question.")
    return HttpResponse("ok")


async def shown(request):
    return JsonResponse({"messages": [str(message) for message in messages.get_messages(request)]})


async def stream(request):
    async def chunks():
        yield PAGE
        yield PAGE

    return StreamingHttpResponse(chunks(), content_type="text/event-stream")


async def broken(request):
    raise OperationalError("connection to server at 10.0.0.5 refused")


urlpatterns = [
    path("page", page),
    path("remember", remember),
    path("recall", recall),
    path("warn", warn),
    path("shown", shown),
    path("stream", stream),
    path("broken", broken),
]


@pytest.fixture(autouse=True)
def these_urls(settings):
    settings.ROOT_URLCONF = __name__


def middleware_hops(seen):
    return {name for name in seen if name.endswith("Middleware")}


async def async_get_response(request):
    return HttpResponse(PAGE)


@pytest.mark.parametrize(
    "middleware",
    # With DEBUG off the settings hold StaticFilesMiddleware already.
    dict.fromkeys(
        [
            *[name for name in settings.MIDDLEWARE if not name.startswith("django.")],
            "visitor_ai.middleware.StaticFilesMiddleware",
        ]
    ),
)
def test_each_of_the_projects_middleware_is_a_coroutine_function_under_asgi(middleware):
    assert iscoroutinefunction(import_string(middleware)(async_get_response))


async def test_a_page_hops_only_for_djangos_security_middleware(hops):
    response = await AsyncClient().get("/page")
    assert response.status_code == 200
    assert middleware_hops(hops) == KEPT


async def test_a_session_an_async_view_writes_is_saved_in_one_hop_and_read_back(hops):
    client = AsyncClient()
    await client.get("/remember")
    assert middleware_hops(hops) == KEPT | {"SessionMiddleware"}  # the save, in a thread
    hops.clear()
    assert (await client.get("/recall")).json() == {"seen": "Peru"}
    assert middleware_hops(hops) == KEPT  # read, not modified: nothing to save


async def test_a_message_added_in_one_request_is_shown_in_the_next():
    client = AsyncClient()
    await client.get("/warn")
    assert (await client.get("/shown")).json() == {"messages": ["Careful: that was the last question."]}
    assert (await client.get("/shown")).json() == {"messages": []}  # shown once


async def test_pages_are_gzipped_and_streams_are_not_under_asgi():
    client = AsyncClient()
    page_response = await client.get("/page", headers={"accept-encoding": "gzip"})
    assert page_response["Content-Encoding"] == "gzip"
    assert gzip.decompress(page_response.content) == PAGE
    streamed = await client.get("/stream", headers={"accept-encoding": "gzip"})
    assert not streamed.has_header("Content-Encoding")
    assert b"".join([chunk async for chunk in streamed.streaming_content]) == PAGE * 2


def test_the_same_middleware_works_under_wsgi():
    client = Client(headers={"accept-encoding": "gzip"})
    assert gzip.decompress(client.get("/page").content) == PAGE
    client.get("/remember")
    assert client.get("/recall").json() == {"seen": "Peru"}
    client.get("/warn")
    assert client.get("/shown").json() == {"messages": ["Careful: that was the last question."]}
    assert client.get("/broken").status_code == 503


async def test_a_database_connection_error_in_an_async_view_answers_503():
    response = await AsyncClient().get("/broken")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert b"10.0.0.5" not in response.content


async def test_the_relay_switch_runs_without_a_hop(settings, hops):
    settings.DEBUG = True
    middleware = relay.TestWalletMiddleware(async_get_response)
    response = await middleware(RequestFactory().get("/", {"testwallet": "0"}))
    assert response.cookies["testwallet"].value == "0"
    assert hops == []


async def test_gzip_and_the_503_pass_a_request_on_without_a_hop(hops):
    request = RequestFactory().get("/", headers={"accept-encoding": "gzip"})
    response = await PageGZipMiddleware(DatabaseUnavailableMiddleware(async_get_response))(request)
    assert gzip.decompress(response.content) == PAGE
    assert hops == []


async def test_static_files_are_read_in_a_thread_and_other_requests_pass_without_one(settings, hops):
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = False
    middleware = StaticFilesMiddleware(async_get_response)
    passed = await middleware(RequestFactory().get("/bookshop/"))
    assert passed.content == PAGE and hops == []
    served = await middleware(RequestFactory().get(f"/{settings.STATIC_URL.strip('/')}/aiconnect/index.js"))
    assert served.status_code == 200 and b"AiConnect" in served.content
