"""How `make test` shares the tests among pytest-xdist's workers (tests/scheduling.py)."""

import os
import subprocess
import sys
from pathlib import Path

from tests.scheduling import BROWSER_TEST_COST, cost, units_in_order

PROJECT = Path(__file__).resolve().parent.parent

# Each test writes down which worker ran it, one line as it starts: a worker's lines are in its order.
RECORDING_CONFTEST = """
import os

import pytest

pytest_plugins = ["tests.scheduling"]


@pytest.fixture(autouse=True)
def record(request):
    with open(os.environ["RECORD"], "a") as record:
        record.write(f"{os.environ['PYTEST_XDIST_WORKER']} {request.node.nodeid}\\n")
"""


def module(tests, group=None):
    mark = f'import pytest\n\npytestmark = pytest.mark.xdist_group("{group}")\n' if group else ""
    return mark + "".join(f"\n\ndef test_{n}():\n    pass\n" for n in range(tests))


def test_a_browser_test_costs_more_than_a_unit_test():
    assert cost(["tests/a.py::test_page[chromium]"]) == BROWSER_TEST_COST
    assert cost(["tests/a.py::test_one", "tests/a.py::test_two"]) == 2


def test_groups_are_handed_out_first_then_modules_by_cost():
    units = {
        "tests/units.py": {f"tests/units.py::test_{n}": False for n in range(30)},
        "@cluster": {"tests/deploy.py::test_sticky@cluster": False},
        "tests/pages.py": {f"tests/pages.py::test_page[chromium-{n}]": False for n in range(2)},
    }
    # The two page tests count for more than the thirty unit tests.
    assert [scope for scope, _ in units_in_order(units)] == ["@cluster", "tests/pages.py", "tests/units.py"]


def test_under_loadgroup_a_modules_tests_run_on_one_worker_and_a_group_across_modules_too(tmp_path):
    (tmp_path / "conftest.py").write_text(RECORDING_CONFTEST)
    for name in "abcdef":
        (tmp_path / f"test_{name}.py").write_text(module(4))
    (tmp_path / "test_grouped_one.py").write_text(module(3, group="cluster"))
    (tmp_path / "test_grouped_two.py").write_text(module(3, group="cluster"))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    record = tmp_path / "record.txt"
    env = {
        **os.environ,
        "RECORD": str(record),
        "PYTHONPATH": str(PROJECT),
        # Only xdist: the project's other plugins (Django, Playwright, the test wallet) have nothing to do here.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "xdist.plugin", "-p", "no:cacheprovider", "-n", "2"]
        + ["--dist", "loadgroup"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "30 passed" in done.stdout

    workers_of: dict[str, set[str]] = {}
    first_of: dict[str, str] = {}
    for line in record.read_text().splitlines():
        worker, nodeid = line.split(" ", 1)
        unit = "cluster" if "grouped" in nodeid else nodeid.split("::")[0]
        workers_of.setdefault(unit, set()).add(worker)
        first_of.setdefault(worker, unit)
    assert len(workers_of) == 7
    assert all(len(workers) == 1 for workers in workers_of.values()), workers_of
    # The group was the first unit handed out: its worker started with it.
    assert first_of[workers_of["cluster"].pop()] == "cluster"
