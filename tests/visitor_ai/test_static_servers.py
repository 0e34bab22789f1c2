"""
collectstatic's output through WhiteNoise's middleware under uvicorn (`make
run`'s server) with DEBUG off: the brotli or gzip copy, a year's immutable cache
for a hashed name, and the readable file never served in its place.
"""

import re

import pytest

from tests import loopback
from testwallet.server import UvicornServer

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def uvicorn_server(tmp_path_factory):
    server = UvicornServer(
        "sites.config.asgi:application",
        settings_module="sites.config.settings",
        setup_commands=[("migrate", "--noinput"), ("collectstatic", "--noinput")],
        env={"DJANGO_DEBUG": "0"},
        workdir=tmp_path_factory.mktemp("uvicorn-static"),
        ws="websockets-sansio",
    )
    with server:
        yield server


def page_script(server, path):
    """Return the URL of the first module script the page at ``path`` names."""
    html = loopback.get(server.url + path).text
    return server.url + re.search(r'<script type="module" src="([^"]+)"', html)[1]


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_uvicorn_sends_a_hashed_script_compressed_and_cached_for_a_year(uvicorn_server, encoding):
    url = page_script(uvicorn_server, "/twentyq/")
    assert re.search(r"/static/twentyq/page\.[0-9a-f]{12}\.js$", url)
    response = loopback.get(url, headers={"Accept-Encoding": encoding})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == encoding
    assert response.headers["cache-control"] == "max-age=315360000, public, immutable"
    assert "access-control-allow-origin" not in response.headers
    assert "//# sourceMappingURL=page.js." in response.text and "@ts-check" not in response.text


def test_uvicorn_serves_no_plain_name_of_a_collected_script(uvicorn_server):
    assert loopback.get(uvicorn_server.url + "/static/twentyq/page.js").status_code == 404
