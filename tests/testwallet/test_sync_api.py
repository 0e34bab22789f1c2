"""
The sync faces of the test wallets cannot be mixed up with the async drivers: the wrong kind of test
or of Playwright page gets a message that says which to use. (The sync faces at work, against the
bookshop, are examples/pytest-sync, run by `make test` in its own session.)

Each case is a pytest session of its own, in a subprocess, since the sync and the async Playwright
plugins cannot load in one session.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SYNC_SESSION = "-p no:playwright-asyncio -p no:asyncio"
ASYNC_SESSION = "-p no:playwright"


def run_session(tmp_path, addopts, test_source, *, extra_ini=""):
    """Run ``test_source`` as a pytest session of its own; return its exit code and output."""
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\naddopts = -q {addopts}\npythonpath = {ROOT}\n{extra_ini}"
    )
    (tmp_path / "test_case.py").write_text(test_source)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def test_an_async_test_in_a_sync_session_is_told_to_be_a_plain_def(tmp_path):
    source = (
        "async def test_mixed_aiwallet(aiwallet):\n    pass\n\n\n"
        "async def test_mixed_byoa_extension(byoa_extension):\n    pass\n"
    )
    code, output = run_session(tmp_path, SYNC_SESSION, source)
    assert code == 1, output
    for fixture in ("aiwallet", "byoa_extension"):
        assert (
            f"{fixture} is sync in this session (pytest-playwright): write test_mixed_{fixture} as a plain 'def' test"
            in output
        )
    assert "pytest-playwright-asyncio instead" in output


def test_a_sync_test_in_an_async_session_is_told_to_be_async(tmp_path):
    source = (
        "def test_mixed_aiwallet(aiwallet):\n    pass\n\n\n"
        "def test_mixed_byoa_extension(byoa_extension):\n    pass\n"
    )
    code, output = run_session(
        tmp_path,
        ASYNC_SESSION,
        source,
        extra_ini="asyncio_mode = auto\nasyncio_default_fixture_loop_scope = session\n",
    )
    assert code == 1, output
    for fixture in ("aiwallet", "byoa_extension"):
        assert (
            f"{fixture} is async in this session (pytest-playwright-asyncio): "
            f"write test_mixed_{fixture} as an 'async def' test" in output
        )
    assert "is then sync (testwallet.sync_api)" in output


@pytest.mark.browser
def test_each_face_refuses_a_page_of_the_other_playwright_api(tmp_path):
    source = """
import re

import pytest
from testwallet.aiwallet import AiWalletStub
from testwallet.extension import ByoaExtension


@pytest.mark.parametrize("driver", [AiWalletStub, ByoaExtension])
def test_the_async_driver_refuses_a_sync_page(page, driver):
    install = driver().install(page)
    expected = "got a sync Playwright Page; this wallet drives async Playwright. Use its sync face, testwallet.sync_api"
    with pytest.raises(TypeError, match=re.escape(expected)):
        install.send(None)  # the check comes before the first await


def test_the_sync_face_refuses_anything_but_a_page_or_context(aiwallet):
    with pytest.raises(TypeError, match="install\\\\(\\\\) takes a Playwright Page or BrowserContext; got 'page'"):
        aiwallet.install("page")
"""
    code, output = run_session(tmp_path, SYNC_SESSION, source)
    assert code == 0, output
    assert "3 passed" in output


@pytest.mark.browser
async def test_the_sync_face_refuses_an_async_page(page):
    from testwallet.sync_api import SyncAiWallet, SyncByoaExtension

    for face in (SyncAiWallet(), SyncByoaExtension()):
        with pytest.raises(
            TypeError, match="got an async Playwright Page; this wallet drives sync Playwright"
        ):
            face.install(page)


@pytest.mark.browser
def test_the_sync_faces_wait_with_plain_calls_while_the_page_runs(tmp_path):
    source = """
import pytest

PAGE = "http://127.0.0.1:9/shop/"  # never reached: the route below serves it, on an origin the stubs serve


@pytest.fixture
def shop(page):
    page.route(PAGE, lambda route: route.fulfill(body="<!doctype html><title>shop</title>", content_type="text/html"))
    return page


def test_approval_window_held_reply_and_ended_chat(shop, aiwallet):
    aiwallet.install(shop)
    aiwallet.consent = "wait"
    shop.goto(PAGE)
    shop.evaluate("() => { window.connecting = window.aiwallet.request('connect'); }")
    window = aiwallet.approval_window()          # a plain call: the page runs meanwhile
    assert window.host == "127.0.0.1:9"
    window.approve()
    assert shop.evaluate("() => window.connecting")["connected"] is True

    reply = aiwallet.reply(["Three ", "calm ", "books."], hold_after=1)
    shop.evaluate(
        "() => { window.deltas = []; window.answer = window.aiwallet.request('chat',"
        " { messages: [{ role: 'user', content: 'calm?' }] },"
        " (e) => e.kind === 'text' && window.deltas.push(e.delta)); }"
    )
    reply.held()
    assert shop.evaluate("() => window.deltas") == ["Three "]
    reply.resume()
    assert shop.evaluate("() => window.answer")["message"]["content"] == "Three calm books."
    assert aiwallet.chats[0].ended() == "answered"

    with pytest.raises(TimeoutError, match="two_chats did not become true within 0.05 s"):
        aiwallet.wait_until(two_chats, timeout=0.05)


def two_chats(wallet):
    return len(wallet.chats) == 2


def test_byoa_extension_logs_a_declined_request(shop, byoa_extension):
    byoa_extension.install(shop)
    byoa_extension.consent = "decline"
    shop.goto(PAGE)
    manifest = {"byoa": "0.1-draft", "purpose": {"summary": "Answer questions about books"},
                "skills": {"text.generate": {"required": True}}, "privacy": "personal"}
    shop.evaluate("(m) => { window.asked = window.byoa.request(m); }", manifest)
    byoa_extension.wait_until(lambda ext: ext.requests and ext.requests[0].done)
    assert shop.evaluate("() => window.asked") is None
    record = byoa_extension.requests[0]
    assert (record.origin, record.valid, record.decision) == ("http://127.0.0.1:9", True, "decline"), record
"""
    code, output = run_session(tmp_path, SYNC_SESSION, source)
    assert code == 0, output
    assert "2 passed" in output


# A page of its own on a loopback origin (the provider serves http://127.0.0.1), with one chat.
RECORDED_CHAT_SESSION = '''
import json
from pathlib import Path

import pytest

CHAT = json.loads(Path("chat.json").read_text())


def chat_in(page, aiwallet, chat):
    page.route("http://127.0.0.1:9/", lambda route: route.fulfill(body="<p>shop</p>", content_type="text/html"))
    aiwallet.install(page)
    aiwallet.approve_site("http://127.0.0.1:9/")
    page.goto("http://127.0.0.1:9/")
    return page.evaluate(
        """(chat) => window.aiwallet.request('chat', chat).then(
             (result) => result.message.content, (error) => `${error.status} ${error.message}`)""",
        chat,
    )


@pytest.mark.testwallet_cassette("stand-ins.json")
def test_replayed(page, aiwallet):
    assert chat_in(page, aiwallet, CHAT) == Path("said.txt").read_text()


@pytest.mark.testwallet_cassette("stand-ins.json")
def test_never_recorded(page, aiwallet):
    said = chat_in(page, aiwallet, {**CHAT, "options": {}})
    assert said.startswith("409 No recorded answer for the streamed chat request")
'''


def test_the_sync_aiwallet_answers_from_the_marked_cassette_and_a_miss_fails_the_test(tmp_path):
    from tests.testwallet.test_aiwallet_recorded import CHAT, RECORDING, recorded_deltas

    recording = (Path(__file__).parent / RECORDING).read_text(encoding="utf-8")
    (tmp_path / "stand-ins.json").write_text(recording, encoding="utf-8")
    (tmp_path / "chat.json").write_text(json.dumps(CHAT), encoding="utf-8")
    (tmp_path / "said.txt").write_text("".join(recorded_deltas()), encoding="utf-8")

    code, output = run_session(tmp_path, SYNC_SESSION, RECORDED_CHAT_SESSION)

    assert code == 1, output
    assert "2 passed, 1 error" in output, output  # the miss: its test body passes, its teardown fails
    assert "NotRecorded" in output and "nearest is entry 0: max_tokens: recorded 48, asked (absent)" in output
