"""
Twenty Questions through AI Wallet (the test wallet's window.aiwallet), in
Chromium on a real daphne: the chooser offers it first, the visitor connects,
and both modes are played with the wallet's model streaming into the page.
"""

import pytest

from tests.twentyq.conftest import (
    Player,
    ai_move_shown,
    answer_pending,
    answering,
    idle,
    new_game,
    open_game,
    state,
    use_way,
    way_ids,
)
from testwallet.aiwallet import Reply

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.fixture
async def game_page(page, no_builtin_model, daphne_server, aiwallet, console):
    await aiwallet.install(page)
    await open_game(page, daphne_server)
    return page


async def test_ai_wallet_is_offered_first_and_answers_once_connected(game_page, console):
    assert await way_ids(game_page) == ["aiwallet", "link", "own"]
    status = await use_way(game_page, "aiwallet")
    assert status == "Answering: AI Wallet (Test wallet (echo-1))"
    assert (
        await game_page.locator("#ways button[data-way='aiwallet']").get_attribute("aria-pressed") == "true"
    )
    assert console == []


async def test_you_think_the_wallet_model_asks_streams_and_guesses_until_it_wins(
    game_page, aiwallet, console
):
    player = Player("giraffe")
    moves = iter(
        [
            ["QUESTION: ", "Is it ", "an animal?"],
            ["QUESTION: Is it a mammal?"],
            ["QUESTION: Does it have a very long neck?"],
            ["GUESS: ", "a giraffe"],
        ]
    )
    aiwallet.model = lambda chat: Reply(next(moves))
    await use_way(game_page, "aiwallet")
    await new_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    assert await game_page.locator("#pending").text_content() == "Your model (echo-1) asks: Is it an animal?"
    assert await game_page.locator("#stream-text").text_content() == ""  # the question is shown once
    first = aiwallet.chats[0]
    assert first.options == {"maxTokens": 60}
    assert [m["role"] for m in first.messages] == ["system", "user"]
    for entries in range(1, 4):
        await answer_pending(game_page, player)
        await ai_move_shown(game_page, entries)
    game = await state(game_page)
    assert {k: game["pending"][k] for k in ("turn", "kind", "text", "by", "way")} == {
        "turn": 4,
        "kind": "guess",
        "text": "a giraffe",
        "by": "model",
        "way": "aiwallet",
    }
    # The third question is not in the catalog: the visitor answered "don't know".
    assert game["history"][2]["answer"] == "unknown"
    assert "I don't know" in aiwallet.chats[3].messages[-1]["content"]
    await answer_pending(game_page, player)
    await ai_move_shown(game_page, 4)
    game = await state(game_page)
    assert (game["status"], game["winner"]) == ("over", "ai")
    assert (
        await game_page.locator("#game-result").text_content()
        == "Your model (echo-1) found it in 4 questions."
    )
    assert len(aiwallet.chats) == 4
    assert console == []


async def test_the_site_thinks_the_wallet_model_answers_typed_questions_and_the_server_judges_the_guess(
    game_page, aiwallet, console
):
    aiwallet.reply(["Yes", "."])
    aiwallet.reply("no")
    await use_way(game_page, "aiwallet")
    await new_game(game_page, "site-thinks")
    assert await game_page.locator("#question-form").is_visible()
    await game_page.locator("#question").fill("Is it alive?")
    await game_page.locator("#ask-button").click()
    await game_page.locator("#history li").first.wait_for(timeout=10000)
    game = await idle(game_page)
    entry = game["history"][0]
    assert (entry["text"], entry["answer"], entry["answeredBy"]) == ("Is it alive?", "yes", "model")
    assert (
        await game_page.locator("#history li").first.text_content()
        == "You asked: Is it alive? Your model (echo-1) said yes."
    )
    chat = aiwallet.chats[0]
    assert chat.options == {"maxTokens": 5}
    assert "exactly one of these words and nothing else: yes, no, sometimes" in chat.messages[0]["content"]
    assert "The secret is:" in chat.messages[0]["content"]  # the caveat: the visitor's model sees the secret
    assert await game_page.locator("#question").input_value() == ""

    await game_page.locator("#question").fill("Is it made of metal?")
    await game_page.locator("#ask-button").click()
    await game_page.locator("#history li").nth(1).wait_for(timeout=10000)
    await game_page.locator("#guess").fill("a teapot that is not the secret")
    await game_page.locator("#guess-button").click()
    await game_page.locator("#history li").nth(2).wait_for(timeout=10000)
    game = await state(game_page)
    assert game["history"][2]["answer"] == "wrong" and game["status"] == "playing"
    assert game["turnsUsed"] == 3
    assert console == []


async def test_a_wallet_refusal_hands_the_move_to_the_site_and_says_why(game_page, aiwallet, console):
    aiwallet.fail(429, "Your plan is spent")
    await use_way(game_page, "aiwallet")
    await new_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    status = await answering(game_page, "own")
    assert status == "Answering: the site's own questions"
    notice = await game_page.locator("#way-notice").text_content()
    assert (
        notice
        == "AI Wallet did not answer (Test wallet answered 429: Your plan is spent), so the site plays on its own."
    )
    game = await state(game_page)
    assert game["pending"]["by"] == "site"  # own mode took the move: no error page, the game goes on
    assert await game_page.locator("#game-error").is_hidden()
    # The visitor switches back to the wallet; the next move is the model's again.
    aiwallet.reply("QUESTION: Is it alive?")
    await use_way(game_page, "aiwallet")
    await answer_pending(game_page, Player("giraffe"))
    await ai_move_shown(game_page, 1)
    pending = (await state(game_page))["pending"]
    assert (pending["turn"], pending["text"], pending["by"]) == (2, "Is it alive?", "model")
    assert [e for e in console if "429" not in e] == []


async def test_stop_aborts_the_wallet_chat_and_keeps_the_game(game_page, aiwallet, console):
    held = aiwallet.reply(["QUESTION: Is it ", "alive?"], hold_after=1)
    await use_way(game_page, "aiwallet")
    await new_game(game_page, "ai-asks")
    await held.held()
    await game_page.locator("#stream-text", has_text="QUESTION: Is it").wait_for(timeout=5000)
    await game_page.locator("#stop").click()
    assert await aiwallet.chats[0].ended() == "cancelled"
    game = await idle(game_page)
    assert game["pending"] is None and game["history"] == []
    assert (
        await game_page.locator("#game-error").text_content() == "Stopped. Ask again, or let the site play."
    )
    assert await game_page.locator("#stream-text").get_attribute("data-state") == "stopped"
    assert await game_page.locator("#ai-next").is_visible()
    assert await game_page.locator("#own-next").is_visible()
    assert await answering(game_page, "aiwallet")
    assert console == []
