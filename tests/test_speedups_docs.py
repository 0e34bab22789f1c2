"""
The code blocks of docs/howto/speedups.md and docs/explanation/performance.md say what the code does:
the settings block turns on every speed-up and passes the system checks, the daphne block names the
speed-up's app config, the warning shown is the one an unverified Django gets, and every benchmark
command names a benchmark that takes its options.
"""

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from django.apps import AppConfig
from django.utils.module_loading import import_string

from visitor_ai import speedups
from visitor_ai.speedups.checks import check_speedups
from visitor_ai.speedups.daphne import DaphneRunserverConfig

ROOT = Path(__file__).resolve().parents[1]
SPEEDUPS_PAGE = ROOT / "docs/howto/speedups.md"
PERFORMANCE_PAGE = ROOT / "docs/explanation/performance.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(page, language):
    return [body for found, body in BLOCK.findall(page.read_text(encoding="utf-8")) if found == language]


def settings_of(block):
    names: dict[str, object] = {}
    exec(block, {}, names)  # the page's own settings, as a settings.py would run them
    return names


def test_the_settings_block_turns_on_every_speedup_and_passes_the_checks(settings):
    [block] = [body for body in blocks(SPEEDUPS_PAGE, "python") if "VISITOR_AI_SPEEDUPS" in body]
    chosen = settings_of(block)["VISITOR_AI_SPEEDUPS"]
    assert set(chosen) == set(speedups.SPEEDUPS)
    for name, options in chosen.items():
        assert set(options) <= set(speedups.SPEEDUPS[name].defaults), name
    settings.VISITOR_AI_SPEEDUPS = chosen
    assert check_speedups() == []


def test_the_daphne_block_names_the_speedups_app_config():
    [block] = [body for body in blocks(SPEEDUPS_PAGE, "python") if "INSTALLED_APPS" in body]
    first = settings_of(block)["INSTALLED_APPS"][0]
    config = import_string(first)
    assert issubclass(config, AppConfig) and config is DaphneRunserverConfig


def test_the_warning_shown_is_the_one_an_unverified_django_gets(settings, monkeypatch):
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "6.2.0" if name.lower() == "django" else real(name))
    settings.VISITOR_AI_SPEEDUPS = {"request_threads": {}}
    [warning] = check_speedups()
    [block] = [body for body in blocks(SPEEDUPS_PAGE, "text") if "speedups.W001" in body]
    shown = " ".join(block.split())
    assert f"({warning.id}) {warning.msg}" in shown
    assert f"HINT: {warning.hint}" in shown


def commands():
    """Return (benchmark path, its options) of each benchmark command of the performance page."""
    found = []
    for block in blocks(PERFORMANCE_PAGE, "console"):
        for command in block.replace("\\\n", " ").splitlines():
            script = re.search(r"\.venv/bin/python (benchmarks/\S+\.py)(.*)", command)
            if script:
                found.append((script[1], re.findall(r"(?<!\S)--[\w-]+", script[2])))
    return found


def test_the_performance_page_names_a_command_for_each_benchmark_it_quotes():
    quoted = set(re.findall(r"benchmarks/results/(\w+)\.txt", PERFORMANCE_PAGE.read_text(encoding="utf-8")))
    assert quoted and all((ROOT / "benchmarks" / "results" / f"{name}.txt").is_file() for name in quoted)
    # A result is a benchmark's (byoa_calls.txt), or one of several runs of it (byoa_calls_one_process.txt).
    stems = {Path(script).stem for script, _options in commands()}
    assert all(any(name == stem or name.startswith(f"{stem}_") for stem in stems) for name in quoted)
    assert all(any(name == stem or name.startswith(f"{stem}_") for name in quoted) for stem in stems)


@pytest.mark.parametrize("script, options", commands(), ids=lambda value: str(value))
def test_every_benchmark_command_on_the_page_takes_its_options(script, options):
    assert (ROOT / script).is_file()
    done = subprocess.run(
        [sys.executable, script, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    for option in options:
        assert option in done.stdout, f"{script} takes no {option}"
