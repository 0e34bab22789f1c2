"""python -m deploy.cluster refuses what it cannot run, saying why, and starts nothing."""

import contextlib
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*argv, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "deploy.cluster", *argv], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def test_down_without_a_running_cluster_says_so(tmp_path, monkeypatch):
    from deploy import cluster

    monkeypatch.setattr(cluster, "PID_FILE", tmp_path / "cluster.pid")
    try:
        cluster.down()
    except SystemExit as exit:
        assert "No cluster is running" in str(exit.code)
    else:
        raise AssertionError("down() did not refuse")


def test_up_with_no_processes_is_refused_before_anything_starts():
    done = run("up", "--processes", "0")
    assert done.returncode == 2
    assert "--processes must be at least 1" in done.stderr


def test_an_unknown_command_is_refused():
    done = run("sideways")
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


class StartsNothing(Exception):
    pass


def started_with(monkeypatch, environ):
    """Return the env= that ``up`` gives its Cluster (which is stopped right there)."""
    from deploy import cluster

    given = {}

    def record(**options):
        given.update(options)
        raise StartsNothing

    monkeypatch.setattr(cluster, "Cluster", record)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # up's Ctrl-C handling stays out of pytest
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    with contextlib.suppress(StartsNothing):
        cluster.up(1, 0)
    return given["env"]


def test_up_runs_with_debug_off_unless_asked(monkeypatch):
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    assert started_with(monkeypatch, {}) == {"DJANGO_DEBUG": "0"}
    assert started_with(monkeypatch, {"DJANGO_DEBUG": "1"}) == {"DJANGO_DEBUG": "1"}


def test_the_clusters_redis_answers_only_with_the_password_its_url_carries():
    import redis

    from deploy.cluster import PasswordRedis
    from tests.services import ServiceMissing

    try:
        server = PasswordRedis()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        assert f":{server.password}@" in server.url
        assert redis.Redis.from_url(server.url).ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(host="127.0.0.1", port=server.port).ping()
        assert server.password not in " ".join(server.command())
