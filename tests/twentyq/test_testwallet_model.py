"""
Twenty Questions by hand (`?testwallet=1`, DEBUG) with no wallet installed: the
in-page AI Wallet stand-in plays through the site's relay, with the developer's
model server (here a fake one) or with the scripted player, an honest one that
plays from the catalog.
"""

import pytest

from tests.testwallet.relay.model_double import MODEL
from tests.twentyq.conftest import (
    Player,
    ai_move_shown,
    answer_pending,
    idle,
    new_game,
    open_by_hand,
    state,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_model_server_asks_a_question_through_the_relay(page, model_server, model):
    model.reply("QUESTION: Is it an animal?")
    status = await open_by_hand(page, model_server)
    assert MODEL in status
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert await page.locator("#pending").text_content() == f"Your model ({MODEL}) asks: Is it an animal?"
    assert await page.locator("#stream-text").text_content() == ""  # the question is shown once
    (chat,) = model.chats()
    assert [m["role"] for m in chat["messages"]] == ["system", "user"] and chat["max_tokens"] == 60
    assert chat["stream"] is True and "tools" not in chat
    assert page.problems == []


async def test_scripted_questioner_finds_what_the_visitor_thinks_of(page, scripted_server):
    player = Player("giraffe")
    status = await open_by_hand(page, scripted_server)
    assert "scripted" in status
    await new_game(page, "ai-asks")
    for entries in range(20):
        await ai_move_shown(page, entries)
        game = await state(page)
        if game["status"] == "over":
            break
        assert game["pending"]["by"] == "model"
        await answer_pending(page, player)
    assert (game["status"], game["winner"]) == ("over", "ai")
    assert page.problems == []


async def test_scripted_host_answers_a_typed_question_about_the_secret(page, scripted_server):
    status = await open_by_hand(page, scripted_server)
    # Named once, and as what it is: "Test wallet (scripted) (scripted)" doubled its label.
    assert status == "Answering: AI Wallet (Test wallet (scripted)) — a scripted stand-in, not an AI"
    await new_game(page, "site-thinks")
    await page.locator("#question").fill("Is it alive?")
    await page.locator("#ask-button").click()
    await page.locator("#history li").first.wait_for(timeout=10000)
    entry = (await idle(page))["history"][0]
    assert entry["answeredBy"] == "model" and entry["answer"] in ("yes", "no")
    # Not "Your AI said yes": no AI played.
    shown = await page.locator("#history li").first.text_content()
    assert shown == f"You asked: Is it alive? The scripted stand-in (not an AI) said {entry['answer']}."
    assert page.problems == []


async def test_model_server_answers_the_extension_stand_ins_text_generate_through_the_relay(
    page, model_server, model
):
    await open_by_hand(page, model_server, "extension")
    await new_game(page, "site-thinks")
    model.reply("Yes.")
    await page.locator("#question").fill("Is it alive?")
    await page.locator("#ask-button").click()
    await page.locator("#history li").first.wait_for(timeout=10000)
    entry = (await idle(page))["history"][0]
    assert (entry["answer"], entry["answeredBy"]) == ("yes", "model")
    (chat,) = model.chats()
    assert chat["stream"] is False and chat["max_tokens"] == 5
    assert chat["messages"][0] == {
        "role": "system",
        "content": "Answer with exactly one of: yes, no, sometimes",
    }
    assert "The secret is:" in chat["messages"][1]["content"]
    assert page.problems == []
