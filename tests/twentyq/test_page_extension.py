"""
Twenty Questions through the BYOA extension (the test wallet's window.byoa), in
Chromium on a real daphne: the grant from the click, text.generate with
params.choices / maxTokens / model, two granted models answering and checking,
one granted model, and every "no" landing in own mode.
"""

import json
from pathlib import Path

import pytest

from tests.twentyq.conftest import (
    Player,
    ai_move_shown,
    answer_pending,
    answering,
    click_way,
    idle,
    new_game,
    open_game,
    state,
    use_way,
    way_ids,
)
from testwallet.extension import FAILED

pytestmark = [pytest.mark.browser, pytest.mark.live]

CHOICES = ["yes", "no", "sometimes"]
MANIFEST = Path(__file__).resolve().parents[2] / "sites" / "twentyq" / "manifest.json"


@pytest.fixture
async def game_page(page, no_builtin_model, daphne_server, byoa_extension, console):
    await byoa_extension.install(page)
    await open_game(page, daphne_server)
    return page


async def ask(page, question, entries):
    await page.locator("#question").fill(question)
    await page.locator("#ask-button").click()
    await page.locator("#history li").nth(entries).wait_for(timeout=10000)
    return await idle(page)


async def test_the_extension_is_offered_after_ai_wallet_and_its_grant_comes_from_the_click(
    game_page, byoa_extension
):
    assert await way_ids(game_page) == ["extension", "link", "own"]
    assert byoa_extension.requests == []  # nothing asked before the click
    await use_way(game_page, "extension")
    request = byoa_extension.requests[0]
    assert request.activated and request.valid, request.errors
    assert request.manifest["skills"]["text.generate"]["models"]["count"] == 2


async def test_two_granted_models_answer_and_check_and_a_disagreement_is_shown(
    game_page, byoa_extension, console
):
    byoa_extension.have(text_models=2)
    byoa_extension.answer_with(
        "text.generate", lambda call: {"text": "Yes." if call.params["model"] == "m1" else "no"}
    )
    status = await use_way(game_page, "extension")
    assert status == "Answering: Your AI in this browser (2 models granted) — m1 answers, m2 checks"
    await new_game(game_page, "site-thinks")
    game = await ask(game_page, "Is it alive?", 0)
    entry = game["history"][0]
    assert entry["answer"] == "yes" and entry["check"] == {"model": "m2", "answer": "no", "agrees": False}
    item = game_page.locator("#history li").first
    assert (
        await item.locator(".check.disagree").text_content()
        == " The two models disagree: the second model (m2) says no."
    )
    calls = byoa_extension.calls_of("text.generate")
    assert sorted(call.params["model"] for call in calls) == ["m1", "m2"]
    assert all(call.params["choices"] == CHOICES and call.params["maxTokens"] == 5 for call in calls)
    # When both agree the page says so, quietly.
    byoa_extension.answer_with("text.generate", lambda call: {"text": "no"})
    game = await ask(game_page, "Is it a vehicle?", 1)
    assert game["history"][1]["check"]["agrees"] is True
    assert (
        await game_page.locator("#history li").nth(1).locator(".check").text_content()
        == " The second model (m2) agrees."
    )
    assert console == []


async def test_the_questioner_asks_only_the_first_of_two_granted_models(game_page, byoa_extension, console):
    byoa_extension.have(text_models=2)
    byoa_extension.reply("text.generate", {"text": "QUESTION: Is it alive?"}, {"text": "GUESS: a giraffe"})
    await use_way(game_page, "extension")
    await new_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    assert await game_page.locator("#pending").text_content() == "Your AI asks: Is it alive?"
    await answer_pending(game_page, Player("giraffe"))
    await ai_move_shown(game_page, 1)
    await answer_pending(game_page, Player("giraffe"))
    await ai_move_shown(game_page, 2)
    assert (await state(game_page))["winner"] == "ai"
    calls = byoa_extension.calls_of("text.generate")
    assert [call.params for call in calls] == [{"maxTokens": 60, "model": "m1"}] * 2
    assert calls[0].input["messages"][0]["role"] == "system"
    assert console == []


async def test_with_one_granted_model_the_game_works_and_no_other_model_is_asked(
    game_page, byoa_extension, console
):
    byoa_extension.have(text_models=1)
    byoa_extension.answer_with("text.generate", lambda call: {"text": "sometimes"})
    status = await use_way(game_page, "extension")
    assert status == "Answering: Your AI in this browser"
    await new_game(game_page, "site-thinks")
    game = await ask(game_page, "Is it round?", 0)
    assert game["history"][0]["answer"] == "sometimes" and game["history"][0]["check"] is None
    assert game_page_text_has_no_check(await game_page.locator("#history li").first.text_content())
    assert [call.params["model"] for call in byoa_extension.calls_of("text.generate")] == ["m1"]
    assert all(call.refused is None for call in byoa_extension.calls)  # never a model-not-granted
    assert console == []


def game_page_text_has_no_check(text):
    return "second model" not in text


async def test_a_declined_grant_leaves_the_site_playing_on_its_own_with_no_error_page(
    game_page, byoa_extension, console
):
    byoa_extension.decline()
    await click_way(game_page, "extension")
    await game_page.locator("#way-notice:not([hidden])").wait_for(timeout=5000)
    assert (
        await game_page.locator("#way-notice").text_content()
        == "Your AI in this browser did not connect, so the site plays on its own."
    )
    assert await answering(game_page, "own")
    await new_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    assert (await state(game_page))["pending"]["by"] == "site"
    assert console == []


async def test_a_failed_call_hands_the_move_to_the_site_and_the_visitor_can_switch_back(
    game_page, byoa_extension, console
):
    byoa_extension.reply("text.generate", FAILED, {"text": "QUESTION: Is it alive?"})
    await use_way(game_page, "extension")
    await new_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    assert await answering(game_page, "own")
    assert (
        await game_page.locator("#way-notice").text_content()
        == "Your AI in this browser did not answer, so the site plays on its own."
    )
    site_question = (await state(game_page))["pending"]
    assert site_question["by"] == "site"
    # Switching back needs no new grant: the extension's grant still holds.
    await use_way(game_page, "extension")
    assert len(byoa_extension.requests) == 1
    await answer_pending(game_page, Player("giraffe"))
    await ai_move_shown(game_page, 1)
    pending = (await state(game_page))["pending"]
    assert (pending["by"], pending["text"]) == ("model", "Is it alive?")
    assert console == []


async def test_a_failed_answer_about_the_secret_leaves_the_site_answering_from_its_list(
    game_page, byoa_extension, console
):
    byoa_extension.reply("text.generate", FAILED)
    await use_way(game_page, "extension")
    await new_game(game_page, "site-thinks")
    await game_page.locator("#question").fill("Is it alive?")
    await game_page.locator("#ask-button").click()
    assert await answering(game_page, "own")
    error = game_page.locator("#game-error")
    await error.wait_for(timeout=10000)
    assert (
        await error.text_content()
        == "Your AI did not answer. Pick a question from the list: the site answers it."
    )
    assert await game_page.locator("#question-form").is_hidden()
    await idle(game_page)
    await game_page.locator("#attribute").select_option("alive")
    await game_page.locator("#ask-own").click()
    await game_page.locator("#history li").first.wait_for(timeout=10000)
    game = await state(game_page)
    assert (game["history"][0]["answeredBy"], game["turnsUsed"]) == ("catalog", 1)
    assert await error.is_hidden()
    assert console == []


async def test_calls_over_the_manifests_per_minute_limit_wait_and_are_not_lost(
    page, daphne_server, byoa_extension, console
):
    limit = json.loads(MANIFEST.read_text())["purpose"]["limits"]["maxCallsPerMinute"]
    await page.clock.install()
    await byoa_extension.install(page)
    await open_game(page, daphne_server)
    byoa_extension.answer_with("text.generate", lambda call: {"text": "no"})
    await use_way(page, "extension")
    asked = 0
    while asked < limit:  # a game has 20 turns: the calls go on in new games within the same minute
        game = await state(page)
        if game is None or game["status"] == "over":
            await new_game(page, "site-thinks")
        entries = len((await state(page))["history"])
        await page.locator("#question").fill(f"Is it thing {asked}?")
        await page.locator("#ask-button").click()
        await page.locator("#history li").nth(entries).wait_for(timeout=10000)
        asked += 1
    entries = len((await state(page))["history"])
    await page.locator("#question").fill("One question too many this minute?")
    await page.locator("#ask-button").click()
    wait = page.locator("#way-wait:not([hidden])")
    await wait.wait_for(timeout=10000)
    assert f"this site asks your AI at most {limit} times a minute" in await wait.text_content()
    assert len(byoa_extension.calls_of("text.generate")) == limit
    assert all(call.ok for call in byoa_extension.calls)  # none refused by the wallet's own limit
    await page.clock.fast_forward(61_000)
    await page.locator("#history li").nth(entries).wait_for(timeout=10000)
    assert await answering(page, "extension")  # it waited; it did not fall back
    assert len(byoa_extension.calls_of("text.generate")) == limit + 1
    assert await wait.is_hidden()
    assert console == []
