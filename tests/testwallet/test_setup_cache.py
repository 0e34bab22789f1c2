"""The session's cache of server set-ups: a set-up runs once, every server gets its own copy."""

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from testwallet import setup_cache
from testwallet.server import DaphneServer, ServerFailedToStart
from testwallet.setup_cache import SetupCache

MIGRATE = ("migrate", "--noinput")


def _writes(*names: str, runs: list[Path]):
    def run(directory: Path) -> None:
        runs.append(directory)
        for name in names:
            (directory / name).write_text(f"made in {directory.name}")

    return run


def test_a_set_up_runs_once_and_each_directory_gets_a_copy_of_what_it_made(tmp_path):
    cache, runs = SetupCache(tmp_path / "cache"), []
    cache.root.mkdir()
    key = cache.key("mysite.settings", [MIGRATE], {})
    first, second = tmp_path / "one", tmp_path / "two"
    for workdir in (first, second):
        workdir.mkdir()
        cache.prepare(key, workdir, _writes("db.sqlite3", runs=runs))
    assert len(runs) == 1
    assert (first / "db.sqlite3").read_text() == (second / "db.sqlite3").read_text()
    (first / "db.sqlite3").write_text("changed by the first server")
    assert (second / "db.sqlite3").read_text().startswith("made in")  # a copy, not a shared file


def test_the_secret_key_is_each_servers_own(tmp_path):
    cache = SetupCache(tmp_path)
    (tmp_path / "server").mkdir()
    cache.prepare("k", tmp_path / "server", _writes("db.sqlite3", "secret_key", runs=[]))
    assert (tmp_path / "server" / "db.sqlite3").exists()
    assert not (tmp_path / "server" / "secret_key").exists()


def test_a_set_up_that_fails_is_not_kept_and_the_next_server_runs_it_again(tmp_path):
    cache, runs = SetupCache(tmp_path), []

    def fails(directory: Path) -> None:
        runs.append(directory)
        raise ServerFailedToStart("'django-admin migrate' failed")

    with pytest.raises(ServerFailedToStart):
        cache.prepare("k", tmp_path, fails)
    assert not (tmp_path / "k").exists() and not runs[0].exists()
    cache.prepare("k", tmp_path, _writes("db.sqlite3", runs=runs))
    assert len(runs) == 2 and (tmp_path / "db.sqlite3").exists()


def test_other_commands_settings_or_environment_are_another_set_up():
    key = SetupCache.key
    base = key("mysite.settings", [MIGRATE], {"DJANGO_DEBUG": "1"})
    assert base == key("mysite.settings", [list(MIGRATE)], {"DJANGO_DEBUG": "1"})
    assert base != key("mysite.settings", [MIGRATE, ("load_catalog",)], {"DJANGO_DEBUG": "1"})
    assert base != key("other.settings", [MIGRATE], {"DJANGO_DEBUG": "1"})
    assert base != key("mysite.settings", [MIGRATE], {"DJANGO_DEBUG": "0"})


def test_servers_that_need_a_set_up_at_once_wait_for_the_one_that_runs_it(tmp_path):
    cache, runs = SetupCache(tmp_path / "cache"), []
    cache.root.mkdir()
    building, go_on = threading.Event(), threading.Event()

    def slow(directory: Path) -> None:
        runs.append(directory)
        building.set()
        assert go_on.wait(10)
        (directory / "db.sqlite3").write_text("migrated")

    workdirs = [tmp_path / "a", tmp_path / "b"]
    for workdir in workdirs:
        workdir.mkdir()
    first = threading.Thread(target=cache.prepare, args=("k", workdirs[0], slow))
    first.start()
    assert building.wait(10)
    second = threading.Thread(target=cache.prepare, args=("k", workdirs[1], slow))
    second.start()
    assert _a_lock_waiter_appears(cache.root / "k.lock")  # the second waits on the first's lock
    assert not (workdirs[1] / "db.sqlite3").exists()
    go_on.set()
    first.join(10)
    second.join(10)
    assert len(runs) == 1
    assert [(workdir / "db.sqlite3").read_text() for workdir in workdirs] == ["migrated", "migrated"]


def _a_lock_waiter_appears(lock: Path, bound: float = 10.0) -> bool:
    # The kernel lists a request blocked on a flock in /proc/locks as "N: -> FLOCK ...",
    # with the file's device:inode. Nothing signals a new waiter, so this looks, within the bound.
    inode = f":{lock.stat().st_ino} "
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if any("->" in line and inode in line for line in Path("/proc/locks").read_text().splitlines()):
            return True
        time.sleep(0.01)
    return False


def test_a_second_server_with_the_same_set_up_gets_the_migrated_database_without_running_it(
    tmp_path, monkeypatch
):
    (tmp_path / "cache").mkdir()
    monkeypatch.setenv(setup_cache.ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    runs = tmp_path / "runs.txt"
    counted = ("shell", "-c", f"open({str(runs)!r}, 'a').write('ran\\n')")
    servers = [
        DaphneServer(
            "sites.config.asgi:application", setup_commands=[MIGRATE, counted], workdir=tmp_path / name
        )
        for name in ("one", "two")
    ]
    for server in servers:
        server.workdir.mkdir()
        server._set_up(server.environment())
    assert runs.read_text() == "ran\n"
    for server in servers:
        with sqlite3.connect(server.database) as database:
            applied = database.execute("SELECT count(*) FROM django_migrations WHERE app = 'byoa'").fetchone()
        assert applied[0] > 0


def test_a_server_with_a_database_of_its_own_runs_its_set_up_itself(tmp_path, monkeypatch):
    (tmp_path / "cache").mkdir()
    monkeypatch.setenv(setup_cache.ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    server = DaphneServer(
        "sites.config.asgi:application",
        setup_commands=[MIGRATE],
        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"},
        workdir=tmp_path / "server",
    )
    server.workdir.mkdir()
    server._set_up(server.environment())
    assert (tmp_path / "elsewhere.sqlite3").exists()
    assert list((tmp_path / "cache").iterdir()) == []
