"""The deployment's nginx serves collectstatic's output: its gzip copies, hashed names cached for a year."""

import gzip

import pytest

from deploy.cluster import NginxProxy
from tests import loopback
from tests.services import ServiceMissing

SCRIPT = b"export const answer=42;\n" * 40


@pytest.fixture
def static_proxy():
    """nginx in front of no process, serving a static root laid out as collectstatic leaves it."""
    try:
        proxy = NginxProxy(["127.0.0.1:9"], "/nonexistent")
    except ServiceMissing as error:
        pytest.skip(str(error))
    # In nginx's own directory, which its workers (nobody, under root) may read.
    proxy.static_root = root = proxy.workdir / "static"
    (root / "ways").mkdir(parents=True)
    (root / "ways" / "chooser.0123456789ab.js").write_bytes(SCRIPT)
    (root / "ways" / "chooser.0123456789ab.js.gz").write_bytes(gzip.compress(SCRIPT))
    (root / "staticfiles.json").write_text('{"paths": {}}')
    with proxy:
        yield proxy


def test_nginx_sends_the_gzip_copy_of_a_hashed_script_cached_for_a_year_immutable(static_proxy):
    response = loopback.get(
        static_proxy.url + "/static/ways/chooser.0123456789ab.js", headers={"Accept-Encoding": "gzip"}
    )
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.content == SCRIPT  # httpx decodes it
    assert int(response.headers["content-length"]) == len(gzip.compress(SCRIPT))
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "Accept-Encoding" in response.headers["vary"]


def test_nginx_caches_a_name_without_a_hash_for_an_hour_only(static_proxy):
    response = loopback.get(static_proxy.url + "/static/staticfiles.json")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=3600"


def test_nginx_sets_on_static_files_the_headers_the_application_sets_on_its_own(static_proxy):
    from django.http import HttpResponse
    from django.middleware.security import SecurityMiddleware
    from django.test import RequestFactory

    request = RequestFactory().get("/static/ways/chooser.0123456789ab.js")
    application = SecurityMiddleware(lambda request: HttpResponse())(request)
    response = loopback.get(static_proxy.url + "/static/ways/chooser.0123456789ab.js")
    expected = ("X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy")
    assert {name: application.headers.get(name) for name in expected} == {
        name: response.headers.get(name) for name in expected
    }
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["server"] == "nginx"
