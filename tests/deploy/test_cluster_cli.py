"""python -m deploy.cluster refuses what it cannot run, saying why, and starts nothing."""

import subprocess
import sys
from pathlib import Path

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
