"""The headless wallet runs where no Django project is: it imports no Django, and its command needs no settings."""

import os
import subprocess
import sys


def without_django_settings():
    return {name: value for name, value in os.environ.items() if name != "DJANGO_SETTINGS_MODULE"}


def test_importing_the_wallet_imports_no_django():
    code = (
        "import sys, testwallet.direct, testwallet.direct.__main__; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=without_django_settings(),
    )
    assert out.stdout.strip() == "[]"


def test_the_command_runs_with_no_django_settings():
    done = subprocess.run(
        [sys.executable, "-m", "testwallet.direct", "--help"],
        capture_output=True,
        text=True,
        env=without_django_settings(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m testwallet.direct")


def test_the_command_refuses_a_bad_link_with_no_django_settings():
    done = subprocess.run(
        [sys.executable, "-m", "testwallet.direct", "bringyourownagent://connect?v=0.2"],
        capture_output=True,
        text=True,
        env=without_django_settings(),
        timeout=60,
    )
    assert (done.returncode, done.stdout.strip()) == (
        1,
        "link refused (version): the link is not of version 0.1: this wallet takes v=0.1 links only",
    )
