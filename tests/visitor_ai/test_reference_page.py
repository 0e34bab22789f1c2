"""docs/reference/visitor_ai.md's own consumer, routed with its middleware by get_asgi_application."""

import re
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "visitor_ai.md"

# The page's consumer is Channels' own: its dispatch closes old database connections before each
# message (channels.db.aclose_old_connections), which touches the test database.
pytestmark = pytest.mark.django_db(transaction=True)


def page_block(marker):
    """Return the Python block of the page right after the marker naming ``marker``."""
    after = PAGE.read_text(encoding="utf-8").split(f"tests/visitor_ai/test_reference_page.py {marker}", 1)[1]
    return re.search(r"```python\n(.*?)```", after, flags=re.DOTALL)[1]


@pytest.fixture
def application(tmp_path, monkeypatch, settings):
    """Return the page's application for shop.example.com, its consumer in an app folder named chat."""
    settings.ALLOWED_HOSTS = ["shop.example.com"]  # read when the validator is built
    (tmp_path / "chat").mkdir()
    (tmp_path / "chat" / "__init__.py").write_text("")
    (tmp_path / "chat" / "consumers.py").write_text(page_block("connects to it"))
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {}
    exec(page_block("builds the application"), names)
    yield names["application"]
    sys.modules.pop("chat.consumers", None)
    sys.modules.pop("chat", None)


async def test_the_pages_consumer_answers_a_browser_of_the_site_and_byoa_keeps_its_route(
    application, settings
):
    communicator = WebsocketCommunicator(
        application,
        "/chat/ws",
        headers=[(b"host", b"shop.example.com"), (b"origin", b"https://shop.example.com")],
    )
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    await communicator.send_json_to({"hello": "there"})
    assert await communicator.receive_json_from(timeout=5) == {"echo": {"hello": "there"}, "signed_in": False}
    await communicator.disconnect()
    paths = [str(route.pattern) for route in application.application_mapping["websocket"].routes]
    assert paths.index("chat/ws") > max(i for i, p in enumerate(paths) if p.startswith("^byoa/ws"))


async def test_the_pages_consumer_refuses_a_page_of_another_site(application):
    communicator = WebsocketCommunicator(
        application,
        "/chat/ws",
        headers=[(b"host", b"shop.example.com"), (b"origin", b"https://evil.example")],
    )
    connected, _ = await communicator.connect(timeout=5)
    assert not connected
