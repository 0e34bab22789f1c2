"""
The performance page's commands say what the benchmarks take: every benchmark command names a
benchmark that takes its options, and every result the page quotes comes from a command it names.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PERFORMANCE_PAGE = ROOT / "docs/explanation/performance.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def commands():
    """Return (benchmark path, its options) of each benchmark command of the performance page."""
    found = []
    page = PERFORMANCE_PAGE.read_text(encoding="utf-8")
    for language, block in BLOCK.findall(page):
        if language != "console":
            continue
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


@pytest.mark.parametrize("script, options", commands(), ids=lambda value: str(value))
def test_every_benchmark_command_on_the_page_takes_its_options(script, options):
    assert (ROOT / script).is_file()
    done = subprocess.run(
        [sys.executable, script, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    for option in options:
        assert option in done.stdout, f"{script} takes no {option}"
