"""
The deploy page's settings for a site of one's own (examples/production/): ``check --deploy``
finds nothing, and the site runs on two processes behind nginx on PostgreSQL's pool and
Redis's pub/sub layer, its static files collected and served by nginx.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests import loopback

pytestmark = [pytest.mark.live, pytest.mark.xdist_group("deploy-own-site")]

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "examples" / "production"
ESBUILD = ROOT / "frontend" / "node_modules" / ".bin" / "esbuild"


def site_environment(**more):
    """Return the environment the deploy page gives every process of the example site."""
    return {
        "PYTHONPATH": str(SITE),
        "DJANGO_SETTINGS_MODULE": "mysite.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "shop.example.com",
        "DATABASE_URL": "postgres://shop:a-password@127.0.0.1/shop",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "STATIC_ROOT": "/srv/shop/static",
        "ESBUILD": str(ESBUILD),
        **more,
    }


def test_check_deploy_finds_nothing_in_the_deploy_pages_settings():
    done = subprocess.run(
        [sys.executable, "-m", "django", "check", "--deploy", "--fail-level", "WARNING"],
        env={**os.environ, **site_environment()},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_deploy_pages_settings_pool_postgres_and_cross_processes_on_redis_pubsub():
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], sorted(s.DATABASES['default']['OPTIONS']['pool']),"
        " s.CHANNEL_LAYERS['default']['BACKEND'], s.MIDDLEWARE[1])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **site_environment()},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "django.db.backends.postgresql",
        "['max_size',",
        "'min_size',",
        "'timeout']",
        "channels_redis.pubsub.RedisPubSubChannelLayer",
        "whitenoise.middleware.WhiteNoiseMiddleware",
    ]


def test_the_site_runs_on_two_processes_behind_nginx_with_its_own_asgi_module():
    from deploy.cluster import Cluster
    from tests.services import ServiceMissing

    cluster = Cluster(
        processes=2,
        settings_module="mysite.settings",
        application="mysite.asgi:application",
        setup_commands=[("migrate", "--noinput")],
    )
    cluster.extra_env.update(
        {
            "PYTHONPATH": str(SITE),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "STATIC_ROOT": str(cluster.static_root),
            "ESBUILD": str(ESBUILD),
        }
    )
    try:
        cluster.start()
    except ServiceMissing as error:
        pytest.skip(str(error))
    try:
        for server in [cluster, *cluster.servers]:
            # Plain http reached the site: Django sends it to https (SECURE_SSL_REDIRECT).
            response = loopback.get(server.url + "/admin/login/")
            assert response.status_code == 301, cluster.output()
            assert response.headers["location"].startswith("https://127.0.0.1")
        manifest = (cluster.static_root / "staticfiles.json").read_text()
        hashed = next(
            name for name in manifest.split('"') if name.startswith("byoa/index.") and name.endswith(".js")
        )
        script = loopback.get(f"{cluster.url}/static/{hashed}")
        assert script.status_code == 200 and script.headers["x-content-type-options"] == "nosniff"
    finally:
        cluster.stop()


def deploy_page_block(marker_words):
    """Return the fenced block of docs/howto/deploy.md right after the marker naming ``marker_words``."""
    page = (ROOT / "docs" / "howto" / "deploy.md").read_text(encoding="utf-8")
    after = page.split(f"tests/deploy/test_own_site.py {marker_words}", 1)[1]
    return after.split("```", 2)[1].split("\n", 1)[1].strip()


def test_the_deploy_pages_install_line_brings_what_the_settings_import_with_django_52():
    import tomllib

    line = deploy_page_block("compares it with the extras")
    assert line == 'pip install "./visitor-ai[uvicorn,scale]" "Django>=5.2,<6" dj-database-url'
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    scale = " ".join(extras["scale"])
    assert "channels-redis" in scale and "psycopg[binary,pool]" in scale
    assert any(requirement.startswith("uvicorn") for requirement in extras["uvicorn"])
    settings = (SITE / "mysite" / "settings.py").read_text()
    assert "import dj_database_url" in settings and "whitenoise" in settings


def test_the_deploy_pages_server_command_serves_the_sites_own_module_as_the_cluster_does():
    from byoa.wire.protocol import MAX_FRAME_BYTES

    command = deploy_page_block("compares it with the server")
    assert (
        command
        == (
            "uvicorn --host 127.0.0.1 --port 8001 --ws websockets-sansio"  # deploy.cluster's processes' WebSockets
            f" --ws-max-size {MAX_FRAME_BYTES} --lifespan on"  # a wallet's largest frame; BYOA's hub starts with it
            " --proxy-headers --forwarded-allow-ips 127.0.0.1"  # the scheme and address from nginx only
            " mysite.asgi:application"  # the module test_the_site_runs_on_two_processes_behind_nginx serves
        )
    )
