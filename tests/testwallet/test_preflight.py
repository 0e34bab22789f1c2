"""The daphne_server fixture refuses a site it cannot serve as asked, saying what to add, before it runs anything."""

import os
import subprocess
import sys

ASGI = "from django.core.asgi import get_asgi_application\n\napplication = get_asgi_application()\n"
# What `startproject` writes: a fixed SQLite file beside the project.
OWN_DATABASE = (
    'DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}\n'
)
READS_DATABASE_URL = 'import dj_database_url\nDATABASES = {"default": dj_database_url.config()}\n'
SITE_TESTS = (
    "def test_served(daphne_server):\n    pass\n\n\ndef test_without_the_server(base_url):\n    pass\n"
)


def run_site_tests(folder, settings, ini="", settings_module="mysite.settings"):
    """Run a one-app site's pytest in ``folder`` with ``settings``; return pytest's output and exit code."""
    package = folder / "mysite"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "asgi.py").write_text(ASGI)
    (package / "settings.py").write_text(
        "from pathlib import Path\n\nBASE_DIR = Path(__file__).resolve().parent.parent\n"
        'SECRET_KEY = "only-for-this-test"\nINSTALLED_APPS = ["django.contrib.contenttypes"]\n' + settings
    )
    # pytest-playwright-asyncio's tests: the test extra installs its sync twin too.
    (folder / "pytest.ini").write_text(
        f"[pytest]\nDJANGO_SETTINGS_MODULE = {settings_module}\naddopts = -p no:playwright\n"
        "asyncio_default_fixture_loop_scope = session\n" + ini
    )
    (folder / "test_site.py").write_text(SITE_TESTS)
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")
    }
    # No short summary (-rN): under CI (its CI variable set) pytest prints the summary line untruncated,
    # which would repeat the error text the tests count.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.stdout + done.stderr, done.returncode


def test_settings_that_ignore_database_url_are_refused_before_anything_runs(tmp_path):
    output, code = run_site_tests(tmp_path, 'ASGI_APPLICATION = "mysite.asgi.application"\n' + OWN_DATABASE)
    assert code == 1, output
    assert output.count("does not read DATABASE_URL") == 1  # printed once, with no "During handling"
    assert "During handling" not in output
    assert "dj_database_url.config(" in output  # what to add
    assert str(tmp_path / "db.sqlite3") in output  # the database it would have used
    assert not (tmp_path / "db.sqlite3").exists()  # daphne_setup_commands' migrate never ran on it
    assert "1 passed, 1 error" in output


def test_a_site_without_an_asgi_application_is_told_both_ways_to_name_it(tmp_path):
    output, code = run_site_tests(tmp_path, READS_DATABASE_URL)
    assert code == 1, output
    assert 'ASGI_APPLICATION = "mysite.asgi.application"' in output
    assert 'daphne_application = "mysite.asgi:application"' in output
    assert "AttributeError" not in output


def test_a_run_without_a_settings_module_is_told_to_name_one(tmp_path):
    output, code = run_site_tests(tmp_path, READS_DATABASE_URL, settings_module="")
    assert code == 1, output
    assert "set DJANGO_SETTINGS_MODULE in pytest's ini options" in output


def test_an_ini_option_naming_a_missing_module_is_refused(tmp_path):
    output, code = run_site_tests(
        tmp_path, READS_DATABASE_URL, ini="daphne_application = mysite.nowhere:application\n"
    )
    assert code == 1, output
    assert "the ini option daphne_application" in output
    assert "there is no module 'mysite.nowhere'" in output


def test_an_asgi_path_without_an_attribute_is_refused(tmp_path):
    output, code = run_site_tests(tmp_path, READS_DATABASE_URL, ini="daphne_application = mysite.asgi\n")
    assert code == 1, output
    assert "'mysite.asgi' is not module:attribute" in output


def test_a_site_run_shows_no_warning_of_the_plugins_it_pulls_in(tmp_path):
    output, _code = run_site_tests(tmp_path, READS_DATABASE_URL)
    assert "1 passed" in output
    assert "warning" not in output.lower(), output
