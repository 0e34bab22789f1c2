"""tests.services: private PostgreSQL and Redis servers that keep their port and data across restarts."""

import dj_database_url
import psycopg
import pytest
import redis

from tests.services import PostgresServer, RedisServer, ServiceFailedToStart, ServiceMissing

pytestmark = pytest.mark.live


@pytest.fixture
def postgres():
    try:
        server = PostgresServer()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        yield server


@pytest.fixture
def redis_service():
    try:
        server = RedisServer()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        yield server


def count_rows(url):
    with psycopg.connect(url) as connection:
        return connection.execute("SELECT count(*) FROM kept").fetchone()[0]


def test_postgres_keeps_its_port_and_data_across_a_restart(postgres):
    with psycopg.connect(postgres.url) as connection:
        connection.execute("CREATE TABLE kept (id int)")
        connection.execute("INSERT INTO kept VALUES (1), (2)")
    port = postgres.port
    postgres.restart()
    assert postgres.port == port
    assert count_rows(postgres.url) == 2


def test_postgres_recovers_committed_data_after_a_kill(postgres):
    with psycopg.connect(postgres.url) as connection:
        connection.execute("CREATE TABLE kept (id int)")
        connection.execute("INSERT INTO kept VALUES (1)")
    postgres.kill()
    assert not postgres.running
    postgres.start()
    assert count_rows(postgres.url) == 1


def test_a_stopped_postgres_refuses_connections_at_once(postgres):
    postgres.stop()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(postgres.url, connect_timeout=5)


def test_postgres_refuses_a_wrong_password(postgres):
    wrong = postgres.url.replace(postgres.password, "not-the-password")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(wrong, connect_timeout=5)


def test_postgres_url_is_a_database_url_django_reads(postgres):
    config = dj_database_url.parse(postgres.url)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("127.0.0.1", postgres.port, postgres.database)


def test_closing_postgres_removes_its_directory():
    try:
        server = PostgresServer()
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        assert (server.data / "PG_VERSION").exists()
    assert not server.workdir.exists()
    assert "ready to accept connections" in server.output()


def test_redis_keeps_its_port_and_saved_data_across_a_restart(redis_service):
    redis.Redis.from_url(redis_service.url).set("kept", "yes")
    port = redis_service.port
    redis_service.restart()
    assert redis_service.port == port
    assert redis.Redis.from_url(redis_service.url).get("kept") == b"yes"


def test_a_killed_redis_comes_back_on_its_port(redis_service):
    redis_service.kill()
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(redis_service.url, socket_connect_timeout=5).ping()
    redis_service.start()
    assert redis.Redis.from_url(redis_service.url).ping()


def test_a_server_that_exits_at_once_fails_to_start_with_its_output(tmp_path):
    broken = tmp_path / "redis-server"
    broken.write_text("#!/bin/sh\necho 'Fatal: no config for you'\nexit 1\n")
    broken.chmod(0o755)
    server = RedisServer(executable=str(broken))
    with pytest.raises(ServiceFailedToStart, match="no config for you"):
        server.start()
    server.close()


def test_a_server_whose_output_ends_without_its_ready_line_fails_to_start_before_it_has_exited(tmp_path):
    # Its output ends a while before it exits: a start that looked only at whether the process was
    # still there took it for started (seen on a loaded CI, where exit and reaping lag the EOF).
    broken = tmp_path / "redis-server"
    broken.write_text("#!/bin/sh\necho 'Fatal: no config for you'\nexec >&- 2>&-\nsleep 5\nexit 1\n")
    broken.chmod(0o755)
    server = RedisServer(executable=str(broken))
    with pytest.raises(ServiceFailedToStart, match="no config for you"):
        server.start()
    server.close()


def test_redis_missing_from_the_path_says_how_to_install_it(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ServiceMissing, match="apt-get install redis-server"):
        RedisServer()


def test_the_session_fixtures_serve_a_database_and_a_channel_layer(postgres_server, redis_server):
    with psycopg.connect(postgres_server.url) as connection:
        assert connection.execute("SELECT current_database()").fetchone()[0] == postgres_server.database
    assert redis.Redis.from_url(redis_server.url).ping()


def test_wait_for_output_returns_what_was_printed_after_the_mark(redis_service):
    mark = redis_service.output_length()
    redis_service.restart()
    assert redis_service.wait_for_output(
        "no such line", "Ready to accept connections", since=mark, timeout=5
    ) == ("Ready to accept connections")
    assert redis_service.wait_for_output("no such line", since=mark, timeout=0.1) is None
