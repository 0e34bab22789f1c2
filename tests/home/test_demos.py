"""The home page's list of demos comes from the installed apps, and the home app imports none of them."""

import ast
from pathlib import Path

from django.apps import apps

from sites.home.demos import installed_demos

HOME = Path(__file__).resolve().parents[2] / "sites" / "home"
DEMOS = ("sites.bookshop", "sites.geography", "sites.twentyq")


def test_home_lists_each_demo_app_that_declares_itself_in_installed_apps_order():
    assert [demo["title"] for demo in installed_demos()] == [
        "Bookshop",
        "Voice geography game",
        "Twenty Questions",
    ]
    assert [demo["url"] for demo in installed_demos()] == ["/bookshop/", "/geography/", "/twentyq/"]


def test_a_demo_app_that_is_not_installed_is_not_listed(settings):
    settings.INSTALLED_APPS = [name for name in settings.INSTALLED_APPS if name != "sites.geography"]
    assert not apps.is_installed("sites.geography")
    assert "Voice geography game" not in [demo["title"] for demo in installed_demos()]


def test_the_home_app_imports_no_demo_app():
    imported = set()
    for source in HOME.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert [name for name in imported if name.startswith(DEMOS)] == []
