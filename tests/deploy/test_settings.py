"""
A production-like environment: check --deploy is clean with the switches of the docs'
"Deploy on several processes" (docs/howto/deploy.md),
PostgreSQL comes through a checked pool, and a database error answers 503.
"""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from sites.config.unavailable import DatabaseUnavailableMiddleware

ROOT = Path(__file__).resolve().parents[2]


def readme_switches():
    """Return the environment docs/howto/deploy.md gives every process, placeholders filled in."""
    section = (ROOT / "docs" / "howto" / "deploy.md").read_text(encoding="utf-8")
    block = section.split("2. The environment", 1)[1].split("```", 2)[1]
    switches = dict(re.findall(r"([A-Z_]+)=(\S+)", block))
    switches["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    switches["DATABASE_URL"] = switches["DATABASE_URL"].replace("<password>", "secret")
    switches.pop("VISITOR_AI_VAR_DIR")  # each test's own
    return switches


PRODUCTION = readme_switches()


def run_django(tmp_path, *argv, **env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_URL"))}
    clean.update(
        {"DJANGO_SETTINGS_MODULE": "sites.config.settings", "VISITOR_AI_VAR_DIR": str(tmp_path), **env}
    )
    return subprocess.run([sys.executable, *argv], env=clean, cwd=ROOT, capture_output=True, text=True)


def test_the_readme_names_the_switches_a_deployment_needs():
    assert {
        "DJANGO_BEHIND_TLS_PROXY",
        "DJANGO_HSTS_SECONDS",
        "DJANGO_ALLOWED_HOSTS",
        "DATABASE_URL",
        "REDIS_URL",
    } <= set(PRODUCTION)


def test_check_deploy_is_clean_with_the_readme_switches(tmp_path):
    done = run_django(
        tmp_path,
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_reports_a_missing_var_dir_as_a_check_error_not_a_traceback(tmp_path):
    missing = tmp_path / "not-created" / "var"
    without_database = {k: v for k, v in PRODUCTION.items() if k != "DATABASE_URL"}  # SQLite in the var dir
    done = run_django(
        tmp_path, "manage.py", "check", "--deploy", **{**without_database, "VISITOR_AI_VAR_DIR": str(missing)}
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    assert "(home.E001) VISITOR_AI_VAR_DIR" in done.stderr and f"mkdir -p {missing}" in done.stderr
    assert not missing.exists()  # reported, not created behind the operator's back


def test_check_deploy_warns_without_hsts(tmp_path):
    without_hsts = {k: v for k, v in PRODUCTION.items() if not k.startswith("DJANGO_HSTS")}
    done = run_django(
        tmp_path,
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **without_hsts,
    )
    assert done.returncode != 0
    assert "security.W004" in done.stderr + done.stdout


PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "db = settings.DATABASES['default']; pool = db.get('OPTIONS', {}).get('pool', {}); "
    "print(json.dumps({'age': db['CONN_MAX_AGE'], 'engine': db['ENGINE'], 'pool': sorted(pool), "
    "'checked': db['CONN_HEALTH_CHECKS'], "
    "'size': pool.get('max_size'), 'redirect': settings.SECURE_SSL_REDIRECT, 'hsts': settings.SECURE_HSTS_SECONDS}))"
)


def test_postgres_connections_come_from_a_checked_pool_never_kept_per_thread(tmp_path):
    import json

    done = run_django(tmp_path, "-c", PROBE, **PRODUCTION, DATABASE_POOL_SIZE="3")
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout)
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["age"] == 0
    # Checked before use: Django passes psycopg_pool's check with CONN_HEALTH_CHECKS (5.2 and 6.x).
    assert values["checked"] is True
    assert values["pool"] == ["max_size", "min_size", "reconnect_timeout", "timeout"] and values["size"] == 3
    assert values["redirect"] is True and values["hsts"] == 31536000


def test_sqlite_has_no_pool_and_no_redirect_by_default(tmp_path):
    import json

    done = run_django(tmp_path, "-c", PROBE)
    values = json.loads(done.stdout)
    assert values["engine"] == "django.db.backends.sqlite3" and values["pool"] == []
    assert values["redirect"] is False and values["hsts"] == 0


def test_a_database_connection_error_answers_503_with_retry_after():
    middleware = DatabaseUnavailableMiddleware(lambda request: HttpResponse())
    request = RequestFactory().get("/bookshop/basket/")
    response = middleware.process_exception(request, OperationalError("connection refused"))
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/plain")
    assert b"Traceback" not in response.content and b"connection refused" not in response.content


def test_other_errors_are_left_to_django():
    middleware = DatabaseUnavailableMiddleware(lambda request: HttpResponse())
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("a bug")) is None


@pytest.mark.parametrize("name", ["DATABASE_POOL_SIZE", "DJANGO_HSTS_SECONDS"])
def test_a_number_that_is_not_one_fails_at_start_naming_the_variable(tmp_path, name):
    done = run_django(tmp_path, "-c", PROBE, **{**PRODUCTION, name: "ten"})
    assert done.returncode != 0
    assert f"{name} must be a whole number, not 'ten'" in done.stderr
