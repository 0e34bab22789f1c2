"""
Twenty Questions through the browser's built-in model (Chrome's Prompt API,
LanguageModel), with the stand-in of frontend/testwallet/languagemodel.js
answered by the test, in Chromium on a real daphne.
"""

import json

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

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_an_available_model_answers_from_the_start_and_streams_the_questioners_moves(
    page, daphne_server, builtin_model, console
):
    builtin_model.reply({"pieces": ["QUESTION: Is", " it", " alive?"]}, "GUESS: a giraffe")
    await builtin_model.install(page)
    await open_game(page, daphne_server)
    assert await way_ids(page) == ["link", "builtin", "own"]
    # Ready without a click, and first of the ready ways: it answers at once.
    assert await answering(page, "builtin") == "Answering: The AI built into this browser"
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    # Streamed while it came, then shown once: in #pending, the streamed text cleared.
    assert await page.locator("#pending").text_content() == "Your AI asks: Is it alive?"
    assert await page.locator("#stream-text").text_content() == ""
    prompt = builtin_model.prompts[0]
    assert [m["role"] for m in prompt["initialPrompts"]] == ["system"]
    assert "Twenty Questions" in prompt["initialPrompts"][0]["content"]
    assert [m["role"] for m in prompt["input"]] == ["user"]
    assert prompt["streaming"] is True and prompt["responseConstraint"] is None
    await answer_pending(page, Player("giraffe"))
    await ai_move_shown(page, 1)
    await answer_pending(page, Player("giraffe"))
    await ai_move_shown(page, 2)
    assert (await state(page))["winner"] == "ai"
    assert console == []


async def test_a_downloadable_model_downloads_on_the_click_and_answers_with_the_choices_as_a_constraint(
    page, daphne_server, builtin_model, console
):
    builtin_model.availability = "downloadable"
    builtin_model.answer_with(lambda prompt: json.dumps("no"))
    await builtin_model.install(page)
    await open_game(page, daphne_server)
    assert await answering(page, "own")  # a download needs the visitor's click
    await use_way(page, "builtin")
    assert builtin_model.downloads == 1
    assert await page.locator("#way-progress").evaluate("(p) => p.value") == 1
    await new_game(page, "site-thinks")
    await page.locator("#question").fill("Is it a vehicle?")
    await page.locator("#ask-button").click()
    await page.locator("#history li").first.wait_for(timeout=10000)
    game = await idle(page)
    assert (game["history"][0]["answer"], game["history"][0]["answeredBy"]) == ("no", "model")
    prompt = builtin_model.prompts[0]
    assert prompt["responseConstraint"] == {"type": "string", "enum": ["yes", "no", "sometimes"]}
    assert prompt["input"] == [{"role": "user", "content": "Is it a vehicle?"}]
    assert "The secret is:" in prompt["initialPrompts"][0]["content"]
    assert console == []


async def test_a_failing_built_in_model_hands_the_move_to_the_site(
    page, daphne_server, builtin_model, console
):
    builtin_model.reply({"error": "NotSupportedError"})
    await builtin_model.install(page)
    await open_game(page, daphne_server)
    await answering(page, "builtin")
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert await answering(page, "own")
    assert await page.locator("#way-notice").text_content() == (
        "The AI built into this browser did not answer, so the site plays on its own."
    )
    assert (await state(page))["pending"]["by"] == "site"
    assert console == []


async def test_every_way_is_offered_in_order_and_the_visitor_switches_between_them(
    page, daphne_server, aiwallet, byoa_extension, builtin_model, console
):
    await aiwallet.install(page)
    await byoa_extension.install(page)
    await builtin_model.install(page)
    await open_game(page, daphne_server)
    assert await way_ids(page) == ["aiwallet", "extension", "link", "builtin", "own"]
    assert await answering(page, "builtin")  # the only way ready without a click

    aiwallet.reply("QUESTION: Is it alive?")
    await use_way(page, "aiwallet")
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert (await state(page))["pending"]["way"] == "aiwallet"

    byoa_extension.reply("text.generate", {"text": "QUESTION: Is it an animal?"})
    await use_way(page, "extension")
    await answer_pending(page, Player("giraffe"))
    await ai_move_shown(page, 1)
    assert (await state(page))["pending"]["way"] == "extension"

    builtin_model.reply("QUESTION: Is it a mammal?")
    await use_way(page, "builtin")
    await answer_pending(page, Player("giraffe"))
    await ai_move_shown(page, 2)
    assert (await state(page))["pending"]["way"] == "builtin"

    await use_way(page, "own")
    await answer_pending(page, Player("giraffe"))
    await ai_move_shown(page, 3)
    assert (await state(page))["pending"]["by"] == "site"
    pressed = await page.locator("#ways button[aria-pressed='true']").evaluate_all(
        "(b) => b.map((x) => x.dataset.way)"
    )
    assert pressed == ["own"]
    assert console == []


async def test_an_approved_ai_wallet_answers_before_a_ready_built_in_model(
    page, daphne_server, aiwallet, builtin_model, console
):
    await aiwallet.install(page)
    await builtin_model.install(page)
    aiwallet.approve_site(daphne_server.url)
    await open_game(page, daphne_server)
    assert await answering(page, "aiwallet") == "Answering: AI Wallet (Test wallet (echo-1))"
    assert console == []
