"""
benchmarks/suite_cpu.py reads the kernel's accounting records and counts each process for the
make recipe that started it: the suite a Chromium renderer or a server belongs to under `make test`.
"""

import struct

from benchmarks.suite_cpu import RECORD, recipe, records

MAKE_TEST = "make test"
SUB_MAKE = "make --no-print-directory -j4 --output-sync=target test-main test-examples"
MAIN_SESSION = ".venv/bin/python -m pytest -n 3 --maxprocesses 4 --dist loadgroup"
LTS_ROW = ".venv/bin/python scripts/matrix.py 3.12-5.2-4.2 -- -p no:xdist"

COMMANDS = {
    1: "/sbin/init",
    10: MAKE_TEST,
    11: SUB_MAKE,
    12: MAIN_SESSION,
    13: "/work/.venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))",
    14: "playwright/driver/node cli.js run-driver",
    15: "/usr/lib/chromium/chromium-headless-shell --headless",
    16: "/usr/lib/chromium/chromium-headless-shell --type=zygote",
    17: "/usr/lib/chromium/chromium-headless-shell --type=renderer",
    20: LTS_ROW,
    21: ".matrix/3.12-5.2-4.2/bin/python -m pytest -p no:xdist",
    30: "/usr/lib/postgresql/15/bin/postgres -D /tmp/postgres/data",
}
PARENTS = {10: 9, 11: 10, 12: 11, 13: 12, 14: 13, 15: 14, 16: 15, 17: 16, 20: 11, 21: 20, 30: 1}


def test_a_renderer_counts_for_the_main_session_that_started_its_browser():
    assert recipe(17, PARENTS, COMMANDS) == MAIN_SESSION


def test_a_nested_run_counts_for_its_own_suite_and_a_recipe_for_itself():
    assert recipe(21, PARENTS, COMMANDS) == LTS_ROW
    assert recipe(20, PARENTS, COMMANDS) == LTS_ROW
    assert recipe(11, PARENTS, COMMANDS) == SUB_MAKE  # the sub-make is a recipe of `make test`


def test_a_process_without_a_make_ancestor_or_in_a_loop_of_reused_ids_is_said_to_have_none():
    assert recipe(30, PARENTS, COMMANDS).startswith("(no make recipe")
    assert recipe(40, {40: 41, 41: 40}, {40: "a", 41: "b"}).startswith("(no make recipe")


def test_an_accounting_record_gives_the_pid_its_parent_and_the_cpu_seconds(tmp_path):
    record = bytearray(RECORD)
    struct.pack_into("<II", record, 16, 4321, 1234)
    # comp_t: 13 bits of mantissa, 3 of base-8 exponent: 250 ticks, and 8,000 * 8 ticks.
    struct.pack_into("<HH", record, 32, 250, (1 << 13) | 8000)
    record[48:55] = b"daphne\0"
    (tmp_path / "acct").write_bytes(bytes(record) * 2)
    assert records(tmp_path / "acct") == [(4321, 1234, "daphne", (250 + 64000) / 100)] * 2
