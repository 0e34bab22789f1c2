"""The daphne_app speed-up's config keeps daphne's own ordering check, under an id of its own."""

from django.test import override_settings

from visitor_ai.speedups.daphne import check_runserver


def test_daphnes_app_after_staticfiles_is_a_system_check_error():
    in_order = ["visitor_ai.speedups.daphne.DaphneRunserverConfig", "django.contrib.staticfiles"]
    with override_settings(INSTALLED_APPS=in_order):
        assert check_runserver() == []
    misordered = ["django.contrib.staticfiles", "visitor_ai.speedups.daphne.DaphneRunserverConfig"]
    with override_settings(INSTALLED_APPS=misordered):
        assert [error.id for error in check_runserver()] == ["speedups.E003"]
