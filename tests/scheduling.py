"""
How `make test` shares the main session's tests among its pytest-xdist workers.

The Makefile asks for `--dist loadgroup`: each test is handed out on its own,
except the tests of one ``xdist_group`` (a cluster, the fault tests, the five
ASGI servers, the tests that play speech into a microphone), which run on
one worker one after another. Handed out one by one, the tests of nearly
every module land on every worker, and each worker starts each module's own
servers, browsers and models for itself: on three workers, most
module-scoped fixtures were set up three times.

So this session hands out a whole module at a time (a group still as one
unit, even across modules), largest first: the groups, which wait on real
processes and clocks, then the modules by how much they do (a browser test
counts for more than a unit test, see `cost`). The last units handed out are
then the small ones, and the workers finish close together.

Only the units and their order change: pytest-xdist still decides when a worker
gets its next unit. `-p no:xdist` or `PYTEST_WORKERS=0` runs no scheduler at all.
"""

from collections import OrderedDict
from collections.abc import Iterable, Mapping

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadGroupScheduling
from xdist.workermanage import WorkerController

#: How much more a test that drives Chromium costs than one that does not, about: measured from
#: the main session's --durations (a page test takes about a second, most unit tests milliseconds).
BROWSER_TEST_COST = 20
# What pytest-playwright puts in a browser test's id: one parameter per browser, ours "chromium".
BROWSER_PARAMETER = "chromium"
# What loadgroup's worker appends to a grouped test's id (pytest_collection_modifyitems below checks it).
GROUP_SEPARATOR = "@"


def cost(nodeids: Iterable[str]) -> int:
    """Estimate how long a unit runs, from its tests' ids (the controller knows no more of them)."""
    return sum(BROWSER_TEST_COST if BROWSER_PARAMETER in nodeid else 1 for nodeid in nodeids)


class ModuleScheduling(LoadGroupScheduling):
    """pytest-xdist's loadgroup scheduler, with a module's tests as one unit and the costliest first."""

    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        super().__init__(config, log)
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        group = super()._split_scope(nodeid)
        if group != nodeid:
            return GROUP_SEPARATOR + group  # a group's unit; no module path starts with "@"
        return nodeid.split("::", 1)[0]

    def _assign_work_unit(self, node: WorkerController) -> None:
        # xdist fills its queue in `schedule()`, ordered by the number of tests, and hands out the
        # first unit straight after: the first hand-out is where the queue is complete to reorder.
        if not self._ordered:
            self.workqueue = OrderedDict(units_in_order(self.workqueue))
            self._ordered = True
        super()._assign_work_unit(node)


def units_in_order(units: Mapping[str, dict[str, bool]]) -> list[tuple[str, dict[str, bool]]]:
    """Return the units (scope: {test id: done}) in the order to hand them out: groups, then by cost."""

    def largest_first(unit: tuple[str, dict[str, bool]]) -> tuple[bool, int]:
        scope, tests = unit
        return (not scope.startswith(GROUP_SEPARATOR), -cost(tests))

    return sorted(units.items(), key=largest_first)


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # before xdist's own; optional: -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> ModuleScheduling | None:
    """Use ModuleScheduling under `--dist loadgroup` (the Makefile's); any other --dist as xdist has it."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return ModuleScheduling(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # `--dist loadgroup` tells the controller a test's xdist_group by a suffix that pytest-xdist's
    # worker adds to its node id. With pytest 9.2's structured node ids the suffix is silently lost
    # (pytest-xdist#1386), and a group's clusters and fault tests then run on every worker at once.
    # Such a test fails, saying so, rather than run that way.
    if getattr(config.option, "loadgroup", False):
        for item in items:
            if item.get_closest_marker("xdist_group") is not None and GROUP_SEPARATOR not in item.nodeid:
                item.stash[_UNGROUPED] = True


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.stash.get(_UNGROUPED, False):
        pytest.fail(
            "--dist loadgroup did not keep this test's xdist_group on one worker: this pytest-xdist "
            "cannot mark groups under this pytest (pytest-xdist#1386; the dev extra pins pytest)",
            pytrace=False,
        )


_UNGROUPED = pytest.StashKey[bool]()
