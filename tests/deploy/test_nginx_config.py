"""deploy/nginx.conf.template, filled in as deploy.cluster fills it, is a configuration nginx accepts."""

import re
import subprocess

import pytest

from deploy.cluster import NginxProxy
from testwallet.services import ServiceMissing


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
