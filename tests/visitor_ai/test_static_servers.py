"""
collectstatic's output through WhiteNoise under uvicorn (`make run`'s server) with
DEBUG off, WhiteNoise's own middleware and the static_files speed-up's alike: the
brotli or gzip copy, a year's immutable cache for a hashed name, and the readable
file never served in its place.
"""

import re

import pytest

from tests import loopback
from testwallet.server import UvicornServer

pytestmark = pytest.mark.live


@pytest.fixture(scope="module", params=["plain", "static_files"])
def uvicorn_server(request, tmp_path_factory):
    speedups = {} if request.param == "plain" else {"VISITOR_AI_SPEEDUPS": request.param}
    server = UvicornServer(
        "sites.config.asgi:application",
        settings_module="sites.config.settings",
        setup_commands=[("migrate", "--noinput"), ("collectstatic", "--noinput")],
        env={"DJANGO_DEBUG": "0", **speedups},
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


# WhiteNoise's own middleware answers with a synchronous file iterator, which Django under ASGI
# reads in a thread after a warning (once a process): the speed-up answers with the bytes.
@pytest.mark.parametrize("uvicorn_server", ["static_files"], indirect=True)
def test_with_the_speedup_uvicorn_logs_no_warning_while_serving_static_files(uvicorn_server):
    for _ in range(2):
        loopback.get(page_script(uvicorn_server, "/geography/"), headers={"Accept-Encoding": "br"})
    assert "Warning" not in uvicorn_server.output(), uvicorn_server.output()[-3000:]
