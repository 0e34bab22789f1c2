"""
The demo project's middleware does what it says under ASGI and under WSGI
(Django's sync test client) alike: gzip for whole pages only, sessions,
messages, the 503 for an unreachable database, the test wallet's switch.
"""

import gzip

import pytest
from django.contrib import messages
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.test import AsyncClient, Client, RequestFactory
from django.urls import path

from sites.config.compression import PageGZipMiddleware
from sites.config.unavailable import DatabaseUnavailableMiddleware
from testwallet.relay import middleware as relay

pytestmark = pytest.mark.django_db(transaction=True)

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


async def async_get_response(request):
    return HttpResponse(PAGE)


async def test_a_session_an_async_view_writes_is_read_back_in_the_next_request():
    client = AsyncClient()
    await client.get("/remember")
    assert (await client.get("/recall")).json() == {"seen": "Peru"}


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


async def test_the_relay_switch_answers_under_asgi(settings):
    settings.DEBUG = True
    middleware = relay.TestWalletMiddleware(async_get_response)
    response = await middleware(RequestFactory().get("/", {"testwallet": "0"}))
    assert response.cookies["testwallet"].value == "0"


async def test_gzip_and_the_503_pass_a_request_on_under_asgi():
    request = RequestFactory().get("/", headers={"accept-encoding": "gzip"})
    response = await PageGZipMiddleware(DatabaseUnavailableMiddleware(async_get_response))(request)
    assert gzip.decompress(response.content) == PAGE
