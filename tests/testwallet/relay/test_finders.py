"""The stand-ins' scripts are static files with DEBUG on only: production's collectstatic copies none."""

import os
import subprocess
import sys

from django.contrib.staticfiles import finders

from testwallet.relay.finders import StandInFinder


def test_the_stand_ins_are_found_with_debug_on(settings):
    settings.DEBUG = True
    found = finders.find("testwallet/aiwallet.js")
    assert found and found.endswith("aiwallet.js")
    assert "byoa.js" in dict(StandInFinder().list(None))


def test_nothing_is_found_or_listed_with_debug_off(settings):
    settings.DEBUG = False
    assert not finders.find("testwallet/aiwallet.js")
    assert list(StandInFinder().list(None)) == []


def test_only_the_stand_ins_own_scripts_are_found(settings):
    settings.DEBUG = True
    finder = StandInFinder()
    assert finder.find("testwallet/../relay/views.py") == []
    assert finder.find("testwallet/skills.json", find_all=True) == []
    assert finder.find("other/aiwallet.js") == []


def test_collectstatic_with_production_settings_copies_no_test_code(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sites.config.settings",
        "DJANGO_DEBUG": "0",
        "VISITOR_AI_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "django", "collectstatic", "--noinput"],
        env=env,
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert done.returncode == 0, done.stderr
    static = tmp_path / "static"
    collected = [path.relative_to(static).as_posix() for path in static.rglob("*") if path.is_file()]
    assert any(name.startswith("byoa/") for name in collected)  # the library itself was collected
    assert [name for name in collected if name.startswith("testwallet/")] == []
