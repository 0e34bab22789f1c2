"""The demo's system checks."""

from django.core import checks


def test_no_warning_with_the_projects_database_sessions():
    assert [m.id for m in checks.run_checks(tags=["twentyq"])] == []


def test_signed_cookie_sessions_get_a_warning(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    assert [m.id for m in checks.run_checks(tags=["twentyq"])] == ["twentyq.W001"]
