"""Settings come from the environment with safe defaults."""

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'debug': settings.DEBUG, 'key': settings.SECRET_KEY, "
    "'hosts': settings.ALLOWED_HOSTS, 'db': settings.DATABASES['default']['ENGINE'], "
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], "
    "'proxy': settings.SECURE_PROXY_SSL_HEADER, 'secure_cookies': settings.SESSION_COOKIE_SECURE, "
    "'runserver': __import__('django.core.management').core.management.get_commands()['runserver'], "
    "'twisted': 'twisted' in __import__('sys').modules, 'middleware': settings.MIDDLEWARE}))"
)


def site_environment(tmp_path, **env):
    """Return this process's environment without the site's own settings, the project's settings
    module and its data in `tmp_path`, and then `env`."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL", "REDIS_CHANNEL_LAYER"))
    }
    return {
        **clean,
        "DJANGO_SETTINGS_MODULE": "sites.config.settings",
        "VISITOR_AI_VAR_DIR": str(tmp_path),
        **env,
    }


def settings_with(tmp_path, **env):
    clean = site_environment(tmp_path, **env)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=clean, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_defaults_are_safe_for_one_machine(tmp_path):
    values = settings_with(tmp_path)
    assert values["debug"] is False
    assert values["hosts"] == ["127.0.0.1", "localhost", "[::1]"]
    assert values["db"] == "django.db.backends.sqlite3"
    assert values["layer"] == "channels.layers.InMemoryChannelLayer"
    assert values["proxy"] is None and values["secure_cookies"] is False


def test_the_middleware_is_djangos_own_but_for_the_demos_three():
    from django.conf import settings

    ours = [name for name in settings.MIDDLEWARE if not name.startswith(("django.", "whitenoise."))]
    assert ours == [
        "sites.config.compression.PageGZipMiddleware",
        "testwallet.relay.middleware.TestWalletMiddleware",
        "sites.config.unavailable.DatabaseUnavailableMiddleware",
    ]


def test_runserver_is_daphnes_with_daphnes_own_app(tmp_path):
    plain = settings_with(tmp_path)
    assert plain["runserver"] == "daphne" and plain["twisted"] is True  # daphne's config imports its server


@pytest.mark.live
async def test_runserver_serves_the_site_through_daphne(tmp_path):
    # PYTHONUNBUFFERED: runserver prints its banner to a pipe without flushing.
    env = site_environment(tmp_path, DJANGO_DEBUG="1", PYTHONUNBUFFERED="1")
    server = await asyncio.create_subprocess_exec(
        *(sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:0"),  # it logs the port it took
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert server.stdout is not None
    said = b""
    try:
        async with asyncio.timeout(30):
            while not (listening := re.search(rb"Listening on TCP address 127\.0\.0\.1:(\d+)", said)):
                line = await server.stdout.readline()
                assert line, f"runserver exited:\n{said.decode(errors='replace')}"
                said += line
            async with httpx.AsyncClient() as client:
                script = await client.get(f"http://127.0.0.1:{int(listening[1])}/static/byoa/link.js")
    except TimeoutError:
        raise AssertionError(
            f"runserver did not serve within 30 s:\n{said.decode(errors='replace')}"
        ) from None
    finally:
        if server.returncode is None:
            server.terminate()
            try:
                await asyncio.wait_for(server.wait(), 10)
            except TimeoutError:
                server.kill()
                await server.wait()
    assert b"Starting ASGI/Daphne" in said
    assert script.status_code == 200 and "export" in script.text


def test_secret_key_is_generated_once_outside_git_and_reused(tmp_path):
    first = settings_with(tmp_path)["key"]
    assert settings_with(tmp_path)["key"] == first
    assert len(first) >= 50
    key_file = tmp_path / "secret_key"
    assert key_file.stat().st_mode & 0o077 == 0
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "secret_key" not in tracked


def test_environment_overrides_every_default(tmp_path):
    values = settings_with(
        tmp_path,
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY="k" * 60,
        DJANGO_ALLOWED_HOSTS="shop.example, www.shop.example",
        DATABASE_URL="postgres://u:p@db.internal/shop",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert values["debug"] is True
    assert values["key"] == "k" * 60
    assert values["hosts"] == ["shop.example", "www.shop.example"]
    assert values["db"] == "django.db.backends.postgresql"
    # BYOA's calls between processes go over the channel layer: channels-redis's pub/sub layer.
    assert values["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_behind_a_tls_proxy_requests_count_as_https_and_cookies_are_secure(tmp_path):
    values = settings_with(tmp_path, DJANGO_BEHIND_TLS_PROXY="1")
    assert values["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["secure_cookies"] is True


LOG_A_REQUEST_WARNING = (
    "import logging, django; django.setup(); "
    "logging.getLogger('django.request').warning('Not Found: /no-such-page')"
)


@pytest.mark.parametrize("debug", ["0", "1"])
def test_a_django_request_warning_is_logged_once(tmp_path, debug):
    clean = site_environment(tmp_path, DJANGO_DEBUG=debug)
    done = subprocess.run(
        [sys.executable, "-c", LOG_A_REQUEST_WARNING],
        env=clean,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr.count("Not Found: /no-such-page") == 1, done.stderr
