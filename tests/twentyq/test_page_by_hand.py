"""
`?testwallet=1` by hand (DEBUG): a person without any wallet or built-in model
can play through the stand-ins, which say clearly that they are not an AI. The
built-in model's stand-in asks the person, in the test wallet's own panel, to
write the model's answer (or pick one of the allowed answers); this test is that person.
"""

import pytest

from tests.testwallet.panel import press, record_native_dialogs, type_answer
from tests.twentyq.conftest import (
    ai_move_shown,
    answering,
    click_way,
    idle,
    new_game,
    state,
    use_way,
    way_ids,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_a_person_plays_both_modes_through_the_labelled_built_in_model_stand_in(
    page, debug_server, console
):
    dialogs = record_native_dialogs(page)
    asked = []
    await page.goto(debug_server.url + "/twentyq/?testwallet=1")
    banner = page.locator(".testwallet-banner")
    assert "not from an AI" in await banner.text_content()
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    assert await way_ids(page) == ["aiwallet", "extension", "link", "builtin", "own"]
    assert await answering(page, "own")  # the stand-in model is "downloadable": nothing runs before a click

    await use_way(page, "builtin")
    await new_game(page, "ai-asks")
    asked.append(await type_answer(page, "QUESTION: Is it alive?"))
    await ai_move_shown(page, 0)
    assert (
        await page.locator("#pending").text_content()
        == "The scripted stand-in (not an AI) asks: Is it alive?"
    )
    await page.locator("#answer-yes").click()
    asked.append(await type_answer(page, "GUESS: a cat"))
    await ai_move_shown(page, 1)
    await page.locator("#verdict-right").click()
    await ai_move_shown(page, 2)
    assert (await state(page))["winner"] == "ai"

    await new_game(page, "site-thinks")
    await page.locator("#question").fill("Is it alive?")
    await page.locator("#ask-button").click()
    asked.append(await press(page, "yes"))  # the page allows yes, no, sometimes: one button each
    await page.locator("#history li").first.wait_for(timeout=10000)
    game = await idle(page)
    assert (game["history"][0]["answer"], game["history"][0]["answeredBy"]) == ("yes", "model")

    assert dialogs == []
    for words in asked:
        assert "Answer as the built-in model" in words and "this stand-in is not an AI" in words
    assert "The page allows only these answers:" in asked[2]
    assert console == []


async def test_the_byoa_stand_ins_consent_for_a_text_game_says_nothing_of_clips(page, debug_server):
    await page.goto(debug_server.url + "/twentyq/?testwallet=1")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await click_way(page, "extension")
    consent = await press(page, "Decline")
    await answering(page, "own")
    assert "The BYOA extension stand-in (not an AI)." in consent
    assert "A scripted player (not an AI) writes the texts." in consent
    assert "clip" not in consent
