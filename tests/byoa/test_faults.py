"""
Faults across server processes (issue 12): two daphne processes of the project
behind one address (one listening socket that both accept on, each also on a
port of its own), a private PostgreSQL and a private Redis channel layer
(tests.services, from Debian's packages: ``make test`` installs them). A process
stops or is killed, Redis restarts, a wallet goes silent or answers late.

The ping interval is short here (tests/byoa/fault_settings.py). Each test
prints what it measured ("recovery ..."): run with ``-s`` to see the figures.
"""

import asyncio
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest

from byoa.calls import GRACE_SECONDS
from tests.byoa.conftest import Browser
from tests.byoa.fault_settings import BYOA as FAULT_BYOA
from tests.byoa.test_direct_link import clip
from tests.polling import until as until_answered
from tests.services import PostgresServer, RedisServer
from testwallet.direct import Consent
from testwallet.server import DaphneServer, UvicornServer

# make test's --dist loadgroup runs the module in one worker: its PostgreSQL, Redis and template start once.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("byoa-faults")]

ROOT = Path(__file__).resolve().parents[2]
# The wallets' ping interval: well inside the servers' silence bound (1.5 x PING_SECONDS).
PING_EVERY = 0.3
SILENT_AFTER = FAULT_BYOA["PING_SECONDS"] * 1.5


def report(what, seconds):
    """Print one measured figure, for the issue's table of recovery times."""
    print(f"\nrecovery: {what}: {seconds:.2f} s", flush=True)


@pytest.fixture(scope="module")
def postgres():
    with PostgresServer() as server:
        yield server


@pytest.fixture(scope="module")
def redis():
    with RedisServer(persistent=False) as server:  # the channel layer's data need not outlive a restart
        yield server


_databases = itertools.count(1)


def create_database(postgres, name, template=None):
    """Create the database ``name`` on ``postgres`` (a copy of ``template``, if named); return its URL."""
    with psycopg.connect(postgres.url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return f"{postgres.url.rpartition('/')[0]}/{name}"


@pytest.fixture(scope="module")
def migrated_template(postgres, tmp_path_factory):
    """Return the name of a database migrated once for the module, the template of each test's own.

    Copying a template is PostgreSQL's own way to make a fresh database; one
    migrate per module instead of one per test saves seconds of every set-up.
    """
    name = "faults_template"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.byoa.fault_settings",
        "DATABASE_URL": create_database(postgres, name),
        "VISITOR_AI_VAR_DIR": str(tmp_path_factory.mktemp("faults-template")),
    }
    done = subprocess.run(
        [sys.executable, "-m", "django", "migrate", "--noinput"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return name


@pytest.fixture
def database_url(postgres, migrated_template):
    """Return the URL of a new database on the module's PostgreSQL: migrated, and nothing else in it."""
    return create_database(postgres, f"faults_{next(_databases)}", template=migrated_template)


@pytest.fixture
def cluster(redis, database_url, tmp_path):
    """Two daphne processes behind one address: one PostgreSQL database, one Redis channel layer."""
    shared = socket.create_server(("127.0.0.1", 0))
    # One database and one secret key (it signs the session cookie) for both; a log file each.
    env = {"REDIS_URL": redis.url, "DATABASE_URL": database_url, "VISITOR_AI_VAR_DIR": str(tmp_path)}
    options = dict(settings_module="tests.byoa.fault_settings", env=env, shared_sockets=[shared])
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    # The database is migrated already (migrated_template): neither process has set-up commands to run.
    options["setup_commands"] = ()
    first = DaphneServer("sites.config.asgi:application", workdir=tmp_path / "first", **options)
    second = DaphneServer("sites.config.asgi:application", workdir=tmp_path / "second", **options)
    cluster = SimpleNamespace(
        url=f"http://127.0.0.1:{shared.getsockname()[1]}",
        processes=(first, second),
        database_url=database_url,
    )
    try:
        with first, second:
            yield cluster
    finally:
        shared.close()
        for name, server in zip(("first", "second"), cluster.processes, strict=True):
            # Shown by pytest only when the test failed (captured at teardown).
            print(f"--- {name} daphne's output ---\n{server.output()[-4000:]}")


@pytest.fixture
async def browser(cluster):
    """A visitor's browser that opens pages at the cluster's one address."""
    browser = Browser(cluster)
    await browser.open_page()
    yield browser
    await browser.close()


async def holder(cluster, browser):
    """Return (the process holding the one wallet connection, the other process)."""
    first, second = cluster.processes
    held = (await browser.http.get(f"{first.url}/_test/held")).json()["held"]
    assert held in (0, 1)
    return (first, second) if held else (second, first)


async def call_on(browser, server, timeout, skill="audio.transcribe"):
    """Make a call from a page served by ``server``; return (output, seconds it took)."""
    output, _outcome, seconds = await outcome_on(browser, server, timeout, skill)
    return output, seconds


async def outcome_on(browser, server, timeout, skill="audio.transcribe"):
    """Make a call from a page served by ``server``; return (output, its outcome's name, seconds it took)."""
    started = time.monotonic()
    response = await browser.http.post(
        f"{server.url}/_test/call", json={"skill": skill, "input": clip(), "params": {}, "timeout": timeout}
    )
    assert response.status_code == 200, response.text
    return response.json()["output"], response.headers["X-Test-Outcome"], time.monotonic() - started


def connected_pairings(cluster):
    """Return the channel names of the pairings the database marks connected."""
    with psycopg.connect(cluster.database_url) as database:
        return [
            name
            for (name,) in database.execute("SELECT channel_name FROM byoa_pairing WHERE channel_name != ''")
        ]


def runs(outcomes):
    """Return the calls' outcomes (started, outcome, seconds) with each run of one outcome as its first and count."""
    shown = []
    for started, outcome, seconds in outcomes:
        if shown and shown[-1][1] == outcome:
            shown[-1][3] += 1
        else:
            shown.append([started, outcome, seconds, 1])
    return [tuple(run) for run in shown]


async def until(ready, seconds, what):
    """Return how long it took for ``ready()`` to hold, checking it back to back; fail after ``seconds``."""
    started = time.monotonic()
    while not await asyncio.to_thread(ready):
        assert time.monotonic() - started < seconds, f"{what} within {seconds} s"
    return time.monotonic() - started


async def test_a_process_stopped_and_restarted_leaves_no_pairing_connected_and_its_calls_fail_at_once(
    cluster, browser, direct_wallet
):
    wallet = await direct_wallet(
        (await browser.new_link())["link"], {"audio.transcribe": {"text": "Peru"}}, ping_seconds=PING_EVERY
    )
    assert wallet.opened, wallet.activity
    held, _other = await holder(cluster, browser)
    assert connected_pairings(cluster)
    held.stop()  # SIGTERM
    assert connected_pairings(cluster) == []
    held.start()  # the same project restarted: a new process
    # Not live at all: the call is not even sent, so nothing waits for an answer.
    assert (await browser.http.get(f"{held.url}/_test/live")).json() == {"live": False}
    output, seconds = await call_on(browser, held, timeout=3600)
    assert output is None
    report("call from a restarted process to a pairing of its stopped predecessor", seconds)


async def test_calls_to_a_killed_process_end_at_their_deadline_with_process_gone(
    cluster, browser, direct_wallet
):
    wallet = await direct_wallet(
        (await browser.new_link())["link"], {"audio.transcribe": {"text": "Peru"}}, ping_seconds=PING_EVERY
    )
    assert wallet.opened, wallet.activity
    held, other = await holder(cluster, browser)
    assert (await call_on(browser, other, timeout=10))[0] == {"text": "Peru"}
    held.process.kill()
    held.process.wait()
    # Nothing answers the call: it ends at its deadline, and the grace after it, with its typed outcome.
    timeout = 3
    output, outcome, seconds = await outcome_on(browser, other, timeout=timeout)
    assert (output, outcome) == (None, "WalletProcessGone")
    assert timeout + GRACE_SECONDS <= seconds < timeout + GRACE_SECONDS + 3
    report(f"call sent to a killed process's pairing (timeout {timeout} s)", seconds)
    # Nothing marks the pairing away (no liveness rows, issue 59): the next call ends the same way,
    # until the wallet says hello to a live process or BYOA["LIVE_SECONDS"] pass without its ping.
    output, outcome, seconds = await outcome_on(browser, other, timeout=timeout)
    assert (output, outcome) == (None, "WalletProcessGone")
    assert timeout + GRACE_SECONDS <= seconds < timeout + GRACE_SECONDS + 3
    report("the next call to the killed process's pairing", seconds)


async def test_a_process_killed_mid_call_gives_its_caller_none_and_the_wallet_comes_back_to_the_other(
    cluster, browser, direct_wallet
):
    started = asyncio.Event()
    answered = []

    async def transcribe(input, params):
        if not started.is_set():
            started.set()
            await asyncio.Event().wait()  # its process dies first
        answered.append("Peru")
        return {"text": "Peru"}

    wallet = await direct_wallet(
        (await browser.new_link())["link"],
        {"audio.transcribe": transcribe},
        consent=Consent.DECIDE_ON_MY_OWN,
        ping_seconds=PING_EVERY,
        delays=lambda: itertools.repeat(0.2, 100),
    )
    assert wallet.opened, wallet.activity
    held, other = await holder(cluster, browser)
    timeout = 4
    caller = asyncio.ensure_future(call_on(browser, other, timeout=timeout))
    async with asyncio.timeout(10):
        await started.wait()
    held.process.kill()
    killed = time.monotonic()
    output, seconds = await caller
    assert output is None
    assert seconds < timeout + GRACE_SECONDS + 2  # resolved by its own timeout, not left hanging
    report(f"call in flight when its wallet's process was killed (timeout {timeout} s)", seconds)
    # The wallet comes back through the one address, which only the other process serves now.
    attempts = 0
    while True:
        attempts += 1
        output, _seconds = await call_on(browser, other, timeout=10)
        if output is not None:
            break
        assert time.monotonic() - killed < 30, f"no call succeeded within 30 s of the kill: {wallet.activity}"
    assert output == {"text": "Peru"}
    report(
        f"kill -> first successful call, the wallet come back ({attempts} attempt(s))",
        time.monotonic() - killed,
    )
    assert answered == ["Peru"]  # the first call was never answered; the next one once
    assert (await browser.http.get(f"{other.url}/_test/held")).json() == {"held": 1}


async def test_calls_during_a_redis_restart_resolve_none_and_the_processes_recover_by_themselves(
    cluster, browser, direct_wallet, redis
):
    wallet = await direct_wallet(
        (await browser.new_link())["link"], {"audio.transcribe": {"text": "Peru"}}, ping_seconds=PING_EVERY
    )
    assert wallet.opened, wallet.activity
    held, other = await holder(cluster, browser)
    pids = [server.process.pid for server in cluster.processes]
    timeout = 2
    calls = []  # (when it started, output, seconds it took) of each call across processes
    outcomes = []  # (when it started, its outcome, seconds it took), shown when the test fails
    began = time.monotonic()
    changed = asyncio.Condition()
    running = True

    async def traffic():
        while running:
            started = time.monotonic()
            output, outcome, seconds = await outcome_on(browser, other, timeout=timeout)
            calls.append((started, output, seconds))
            outcomes.append((round(started - began, 2), outcome, round(seconds, 2)))
            async with changed:
                changed.notify_all()

    async def first_call(ok, since, bound, what):
        """Return the start time of the first call since ``since`` that succeeded (ok) or gave None."""

        def found():
            return next(
                (started for started, output, _s in calls if started >= since and (output is not None) == ok),
                None,
            )

        try:
            async with asyncio.timeout(bound):
                async with changed:
                    await changed.wait_for(lambda: found() is not None)
        except TimeoutError:
            pytest.fail(f"{what}: not within {bound} s; calls (started, outcome, seconds): {runs(outcomes)}")
        return found()

    flowing = asyncio.ensure_future(traffic())
    try:
        await first_call(True, 0, 10, "traffic flows")
        await asyncio.to_thread(redis.stop)
        stopped = time.monotonic()
        try:
            await first_call(False, stopped, 10, "a call during the gap")
            # The wallet's own process still serves calls: they never touch the channel layer.
            assert (await call_on(browser, held, timeout=10))[0] == {"text": "Peru"}
        finally:
            starting = time.monotonic()
            await asyncio.to_thread(redis.start)
        restarted = time.monotonic()
        recovered = await first_call(True, restarted, 30, "calls across processes recover")
    finally:
        running = False
        await flowing
    # The calls made and ended while Redis was down (a call started just before it came back may succeed).
    gap = [
        (output, seconds)
        for started, output, seconds in calls
        if stopped <= started and started + seconds < starting
    ]
    assert gap and all(output is None for output, _seconds in gap)
    # None hung past its timeout (and the grace a caller in another process waits after it).
    assert max(seconds for _started, _output, seconds in calls) < timeout + GRACE_SECONDS + 2
    report(f"calls across processes while Redis was down ({len(gap)}): longest", max(s for _o, s in gap))
    report("Redis restarted -> first call across processes that succeeded (started)", recovered - restarted)
    assert [server.process.pid for server in cluster.processes] == pids
    assert all(server.process.poll() is None for server in cluster.processes)


async def test_a_wallet_stopped_with_sigstop_is_detected_as_silent_and_its_calls_resolve_none(
    cluster, browser
):
    link = (await browser.new_link())["link"]
    # Popen only starts it; its output is read off the loop (asyncio.to_thread) and it is stopped by signals.
    wallet = subprocess.Popen(  # noqa: ASYNC220
        [sys.executable, "-m", "tests.byoa.fault_wallet", link, str(PING_EVERY)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = await asyncio.wait_for(asyncio.to_thread(wallet.stdout.readline), 20)
        assert line.strip() == "connected", line + wallet.stdout.read()
        held, other = await holder(cluster, browser)
        assert (await call_on(browser, other, timeout=10))[0] == {"text": "Peru"}
        os.kill(wallet.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        # A call sent to the stopped wallet ends when the silence is noticed, long before its timeout.
        output, seconds = await call_on(browser, other, timeout=3600)
        assert output is None
        report(f"call to a SIGSTOPped wallet (silent after {SILENT_AFTER} s)", seconds)
        await until(lambda: connected_pairings(cluster) == [], 30, "the silent wallet's pairing was detached")
        report("SIGSTOP -> pairing detached", time.monotonic() - stopped)
        output, _seconds = await call_on(browser, held, timeout=3600)
        assert output is None
        assert wallet.poll() is None  # still there, only silent: nothing but the silence closed it
    finally:
        wallet.kill()  # SIGKILL ends a stopped process too
        wallet.wait(10)


async def test_a_late_result_is_dropped_and_never_reaches_another_caller(cluster, browser, direct_wallet):
    first_call = asyncio.Event()
    first_caller_gone = asyncio.Event()
    late_sent = asyncio.Event()

    async def transcribe(input, params):
        if not first_call.is_set():
            first_call.set()
            await first_caller_gone.wait()
            late_sent.set()
            return {"text": "late"}
        await late_sent.wait()
        # Answered a moment after the late result, so that the late one is on the wire first.
        await asyncio.sleep(0.2)
        return {"text": "fresh"}

    wallet = await direct_wallet(
        (await browser.new_link())["link"], {"audio.transcribe": transcribe}, ping_seconds=PING_EVERY
    )
    assert wallet.opened, wallet.activity
    held, other = await holder(cluster, browser)
    slow = asyncio.ensure_future(call_on(browser, other, timeout=1))
    async with asyncio.timeout(10):
        await first_call.wait()
    # Two callers at once, one in each process: the first gives up, the second waits for its own answer.
    waiting = [asyncio.ensure_future(call_on(browser, server, timeout=10)) for server in (held, other)]
    assert (await slow)[0] is None
    first_caller_gone.set()
    outputs = [output for output, _seconds in await asyncio.gather(*waiting)]
    assert outputs == [{"text": "fresh"}, {"text": "fresh"}]


async def test_a_caller_in_another_process_that_leaves_frees_its_calls_slot_at_once(
    cluster, browser, direct_wallet
):
    working = asyncio.Event()
    release = asyncio.Event()

    async def transcribe(input, params):
        if not working.is_set():
            working.set()
            await release.wait()  # the wallet is still at it when its caller leaves
            return {"text": "late"}
        return {"text": "Peru"}

    wallet = await direct_wallet(
        (await browser.new_link())["link"],
        {"audio.transcribe": transcribe},
        limits={"maxParallelCalls": 1},
        ping_seconds=PING_EVERY,
    )
    assert wallet.opened, wallet.activity
    # The site holds the grant of one call at a time; this wallet would answer a second one meanwhile,
    # so what is tested is the site's count alone.
    wallet.grant["limits"]["maxParallelCalls"] = 2
    held, other = await holder(cluster, browser)
    leaving = asyncio.ensure_future(call_on(browser, other, timeout=60))
    async with asyncio.timeout(10):
        await working.wait()
    leaving.cancel()  # the visitor's request goes: its connection closes and Django cancels the view
    left = time.monotonic()
    await asyncio.gather(leaving, return_exceptions=True)
    # Before the cancel arrives, a call is refused as over the grant; once it has, the call is sent.
    # Without it the slot stays taken until the wallet ends the first call (at the grant's 20 s maxCallSeconds).
    outcomes = []

    async def next_call():
        response = await browser.http.post(
            f"{other.url}/_test/call",
            json={"skill": "audio.transcribe", "input": clip(), "params": {}, "timeout": 10},
        )
        outcomes.append(response.headers["X-Test-Outcome"])
        return response

    async with asyncio.timeout(8):
        response = await until_answered(
            next_call, lambda response: response.headers["X-Test-Outcome"] == "output"
        )
    assert set(outcomes[:-1]) <= {"TooManyCalls"}, outcomes
    assert response.json()["output"] == {"text": "Peru"}
    report(
        f"caller left -> its slot free for the next call ({len(outcomes)} call(s))", time.monotonic() - left
    )
    release.set()  # the first call's late result is dropped quietly
    assert (await call_on(browser, held, timeout=10))[0] == {"text": "Peru"}


async def test_uvicorn_stopped_with_sigterm_detaches_its_pairings(
    redis, database_url, tmp_path, direct_wallet
):
    env = {"REDIS_URL": redis.url, "DATABASE_URL": database_url}
    server = UvicornServer(
        "sites.config.asgi:application",
        settings_module="tests.byoa.fault_settings",
        env=env,
        workdir=tmp_path,
        setup_commands=(),
    )  # migrated already (migrated_template)
    database = SimpleNamespace(database_url=database_url)
    with server:
        browser = Browser(server)
        try:
            await browser.open_page()
            wallet = await direct_wallet(
                (await browser.new_link())["link"],
                {"audio.transcribe": {"text": "Peru"}},
                ping_seconds=PING_EVERY,
            )
            assert wallet.opened, wallet.activity
            assert connected_pairings(database)
        finally:
            await browser.close()
        # SIGTERM: uvicorn shuts down gracefully (the lifespan's shutdown included), then
        # ends itself with the same signal, so Python's exit handlers never run.
        server.stop()
    assert connected_pairings(database) == []
