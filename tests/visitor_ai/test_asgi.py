"""get_asgi_application builds a site's one ASGI application from what INSTALLED_APPS holds."""

import httpx
import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.urls import path

from mcp_server.asgi import MCPApplication
from visitor_ai.asgi import get_asgi_application


def http_routes(application):
    return {str(route.pattern): route.callback for route in application.application_mapping["http"].routes}


def websocket_paths(application):
    return [str(route.pattern) for route in application.application_mapping["websocket"].routes]


def test_the_mcp_endpoint_and_its_lifespan_come_with_mcp_server():
    application = get_asgi_application()
    mcp = http_routes(application)["api/mcp"]
    assert isinstance(mcp, MCPApplication)
    # Inside the freeze at start-up's end (visitor_ai.collector); byoa has no lifespan of its own.
    assert application.application_mapping["lifespan"].app is mcp


def test_the_wallet_route_comes_with_byoa_and_a_sites_own_routes_follow_it():
    async def own_consumer(scope, receive, send):
        pass

    from byoa.routing import websocket_routes

    application = get_asgi_application(websocket_routes=[path("chat/ws", own_consumer)])
    # byoa's: /byoa/ws, /byoa/ws/<route id>, and the refusal of anything else under it.
    byoa_paths = [str(route.pattern) for route in websocket_routes()]
    assert all(pattern.startswith("^byoa/ws") for pattern in byoa_paths)
    assert websocket_paths(application) == [*byoa_paths, "chat/ws", ""]  # "": the refusal of the rest


@pytest.mark.parametrize("path", ["/anything", "/api/mcp", "/byoa/wsX", "/"])
async def test_a_websocket_on_a_path_with_no_route_is_refused_at_the_handshake(path):
    communicator = WebsocketCommunicator(get_asgi_application(), path)
    connected, _code = await communicator.connect(timeout=5)
    assert not connected  # a close before the accept: servers answer the handshake with 403


async def test_the_library_is_served_with_debug_on(settings):
    settings.DEBUG = True
    application = get_asgi_application()
    assert any(isinstance(app, ASGIStaticFilesHandler) for app in http_routes(application).values())
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=10) as client:
        response = await client.get("/static/aiconnect/index.js")
    assert response.status_code == 200
    assert "export { AiConnect }" in response.text


def test_static_files_are_left_to_a_proxy_with_debug_off_unless_asked(settings):
    settings.DEBUG = False
    served = [isinstance(app, ASGIStaticFilesHandler) for app in http_routes(get_asgi_application()).values()]
    assert served == [False, False]
    asked = http_routes(get_asgi_application(serve_static=True)).values()
    assert any(isinstance(app, ASGIStaticFilesHandler) for app in asked)


def test_djangos_own_handler_serves_the_pages_by_default():
    from django.core.handlers.asgi import ASGIHandler

    [pages] = [app for route, app in http_routes(get_asgi_application()).items() if route != "api/mcp"]
    assert type(pages) is ASGIHandler
