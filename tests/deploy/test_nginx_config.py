"""deploy/nginx.conf.template, filled in as deploy.cluster fills it, is a configuration nginx accepts."""

import re
import subprocess

import pytest

from deploy.cluster import NginxProxy
from tests.services import ServiceMissing


@pytest.fixture
def proxy(tmp_path):
    try:
        proxy = NginxProxy(["127.0.0.1:8001", "127.0.0.1:8002"], tmp_path)
    except ServiceMissing as error:
        pytest.skip(str(error))
    proxy.prepare()
    proxy.port = 8080
    yield proxy
    proxy.close()


def test_the_filled_in_template_passes_nginx_own_check(proxy):
    done = subprocess.run(
        [proxy.executable, "-t", "-p", str(proxy.workdir), "-e", "stderr", "-c", str(proxy.config())],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


def test_every_placeholder_is_filled_in(proxy):
    text = "\n".join(line for line in proxy.config().read_text().splitlines() if not line.startswith("#"))
    assert re.search(r"@[A-Z_]+@", text) is None
    assert "server 127.0.0.1:8001" in text and "server 127.0.0.1:8002" in text
    assert "listen 127.0.0.1:8080;" in text


def locations(text):
    """Return {location path: its block's text} of the filled-in configuration."""
    return dict(re.findall(r"location (\S+) \{(.*?)\n        \}", text, flags=re.DOTALL))


def test_every_location_limits_one_addresss_connections(proxy):
    blocks = locations(proxy.config().read_text())
    assert set(blocks) == {"/static/", "/"}
    assert all("limit_conn connections " in block for block in blocks.values())


def test_header_body_and_keepalive_timeouts_are_at_most_15_seconds(proxy):
    text = proxy.config().read_text()
    for directive in ("client_header_timeout", "client_body_timeout", "keepalive_timeout", "send_timeout"):
        seconds = re.search(rf"^\s*{directive} (\d+)s;", text, flags=re.MULTILINE)
        assert seconds is not None and int(seconds.group(1)) <= 15, directive


def test_each_worker_may_open_two_descriptors_per_connection(proxy):
    text = proxy.config().read_text()
    connections = int(re.search(r"worker_connections (\d+);", text).group(1))
    files = int(re.search(r"worker_rlimit_nofile (\d+);", text).group(1))
    assert files >= 2 * connections


def test_nginx_refuses_any_body_larger_than_a_process_accepts(proxy, settings):
    text = proxy.config().read_text()
    limit = re.search(r"^\s*client_max_body_size (\d+);", text, flags=re.MULTILINE)
    assert limit is not None
    # visitor_ai.limits.BodyLimit refuses past DATA_UPLOAD_MAX_MEMORY_SIZE: nginx must refuse first.
    assert int(limit.group(1)) <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_no_process_is_ever_marked_failed_and_no_post_is_passed_to_another(proxy):
    text = proxy.config().read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+ (.*);", text, flags=re.MULTILINE)
    assert servers == ["max_fails=0", "max_fails=0"]
    retried = re.findall(r"^\s*proxy_next_upstream (.*);", text, flags=re.MULTILINE)
    assert retried and all("non_idempotent" not in value for value in retried)


def test_nginx_names_no_version(proxy):
    assert re.search(r"^\s*server_tokens off;", proxy.config().read_text(), flags=re.MULTILINE)
