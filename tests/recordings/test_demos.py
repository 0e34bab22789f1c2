"""
The demos against a real model's words: each test plays a session of a demo by
hand (``?testwallet=1``) in Chromium, answered from the recording beside this
file (``<demo>.json``), with no model server at all.

The same tests made the recordings, once, against a model run on this machine
(llama.cpp's llama-server with SmolLM2-135M-Instruct; docs/howto/recorded-answers.md)::

    TESTWALLET_RECORD=all TESTWALLET_MODEL_URL=http://127.0.0.1:8091/v1 \\
        .venv/bin/python -m pytest tests/recordings -p no:cacheprovider

What a test checks of the page is read from the recording, so recording again
with another model still passes: the words the page shows are the model's.
"""

import json
import os
from pathlib import Path

import pytest

from tests.bookshop.test_testwallet_model import ask, open_shop
from tests.twentyq.conftest import new_game, open_by_hand, state
from testwallet.server import DaphneServer

pytestmark = [pytest.mark.browser, pytest.mark.live]

HERE = Path(__file__).parent
#: all or new to record against TESTWALLET_MODEL_URL; unset, the recordings replay with no model server.
RECORD = os.environ.get("TESTWALLET_RECORD", "none")
#: A real model on two cores takes seconds per answer; a replay takes none.
WAIT_MS = 120_000 if RECORD != "none" else 15_000


def demo_server(tmp_path_factory, demo):
    env = {
        "DJANGO_DEBUG": "1",
        "TESTWALLET_CASSETTE": str(HERE / f"{demo}.json"),
        "TESTWALLET_RECORD": RECORD,
        "TESTWALLET_MODEL_URL": os.environ.get("TESTWALLET_MODEL_URL", "") if RECORD != "none" else "",
        "TESTWALLET_TRANSCRIBE_URL": "",
        "TESTWALLET_MODEL_TIMEOUT": "300",
    }
    return DaphneServer(
        "sites.config.asgi:application",
        env=env,
        setup_commands=(("migrate", "--noinput"), ("load_catalog",)),
        workdir=tmp_path_factory.mktemp(demo),
    )


@pytest.fixture(scope="module")
def bookshop_server(tmp_path_factory):
    with demo_server(tmp_path_factory, "bookshop") as server:
        yield server


@pytest.fixture(scope="module")
def twentyq_server(tmp_path_factory):
    with demo_server(tmp_path_factory, "twentyq") as server:
        yield server


def streamed_text(demo, index):
    """Return the text the recording's `index`-th streamed answer streams, as the page shows it."""
    entries = [e for e in json.loads((HERE / f"{demo}.json").read_text())["entries"] if e["asked"]["stream"]]
    pieces = [
        choice.get("delta", {}).get("content") or ""
        for event in entries[index]["answer"]["stream"]
        for choice in event.get("choices", [])
    ]
    return "".join(pieces)


async def test_bookshop_answers_a_question_with_the_recorded_models_words(page, bookshop_server):
    asked = await open_shop(page, bookshop_server)
    assert "recorded in bookshop.json" in asked or RECORD != "none"

    answer = await ask_long(page, "A calm book for tonight")

    final = len(json.loads((HERE / "bookshop.json").read_text())["entries"]) - 1
    # The page sets paragraphs apart by elements, not by the model's blank lines.
    assert words(answer) == words(streamed_text("bookshop", final)) != ""
    assert page.problems == []


def words(text):
    return "".join(text.split())


async def ask_long(page, question):
    await page.locator("#question").fill(question)
    await page.get_by_role("button", name="Ask", exact=True).click()
    await page.locator("#stop").wait_for(state="hidden", timeout=WAIT_MS)
    await page.locator("#ask-button:enabled").wait_for(state="attached", timeout=WAIT_MS)
    return await page.locator(".turn.assistant .text").last.text_content()


async def test_bookshop_shows_that_a_question_never_recorded_has_no_recording(page, bookshop_server):
    if RECORD != "none":
        pytest.skip("recording: every question is recorded")
    await open_shop(page, bookshop_server)

    answer = await ask(page, "Something never asked")

    shown = await page.locator("main").text_content()
    assert 'No recorded answer for the streamed chat request ending "Something never asked"' in shown, (
        answer,
        shown,
    )
    assert "nearest is entry 0" in shown


async def test_twentyq_shows_the_recorded_models_first_move_as_the_game_takes_it(page, twentyq_server):
    await open_by_hand(page, twentyq_server, way="extension")
    await new_game(page, "ai-asks")

    await page.wait_for_function(
        """() => !document.getElementById('game-error').hidden
            || (document.querySelector('#stop').hidden && !document.getElementById('answer-form').hidden)""",
        timeout=WAIT_MS,
    )
    (entry,) = json.loads((HERE / "twentyq.json").read_text())["entries"]
    said = entry["answer"]["completion"]["choices"][0]["message"]["content"]
    game = await state(page)
    if said.strip().upper().startswith(("QUESTION:", "GUESS:")):
        assert game["pending"]["by"] == "model" and game["pending"]["text"] in said
    else:  # what a small model often says: not a move, and the game records nothing of it
        assert await page.locator("#game-error").is_visible()
        assert game["history"] == [] and game["pending"] is None
    assert page.problems == []
