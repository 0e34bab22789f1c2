"""
`?testwallet=1` by hand (DEBUG): a person without any wallet or built-in model
can play through the stand-ins, which say clearly that they are not an AI. The
built-in model's stand-in asks the person, in a prompt dialog, to type what the
model says; this test is that person.
"""

import pytest

from tests.twentyq.conftest import ai_move_shown, answering, idle, new_game, state, use_way, way_ids

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_a_person_plays_both_modes_through_the_labelled_built_in_model_stand_in(
    page, debug_server, console
):
    typed = iter(["QUESTION: Is it alive?", "GUESS: a cat"])
    dialogs = []

    async def play_the_model(dialog):
        dialogs.append((dialog.type, dialog.message, dialog.default_value))
        if dialog.type != "prompt":
            await dialog.dismiss()
        elif dialog.default_value:
            await dialog.accept(dialog.default_value)  # the constrained answer, prefilled
        else:
            await dialog.accept(next(typed))

    page.on("dialog", play_the_model)
    await page.goto(debug_server.url + "/twentyq/?testwallet=1")
    banner = page.locator(".testwallet-banner")
    assert "not from an AI" in await banner.text_content()
    await page.locator("#ways[data-ready='true']").wait_for(timeout=5000)
    assert await way_ids(page) == ["aiwallet", "extension", "link", "builtin", "own"]
    assert await answering(page, "own")  # the stand-in model is "downloadable": nothing runs before a click

    await use_way(page, "builtin")
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert await page.locator("#pending").text_content() == "The scripted stand-in asks: Is it alive?"
    await page.locator("#answer-yes").click()
    await ai_move_shown(page, 1)
    await page.locator("#verdict-right").click()
    await ai_move_shown(page, 2)
    assert (await state(page))["winner"] == "ai"

    await new_game(page, "site-thinks")
    await page.locator("#question").fill("Is it alive?")
    await page.locator("#ask-button").click()
    await page.locator("#history li").first.wait_for(timeout=10000)
    game = await idle(page)
    assert (game["history"][0]["answer"], game["history"][0]["answeredBy"]) == ("yes", "model")

    kinds = [kind for kind, _message, _default in dialogs]
    assert kinds == ["prompt", "prompt", "prompt"]
    for _kind, message, _default in dialogs:
        assert message.startswith("Built-in model stand-in (test, not an AI).")
    assert dialogs[2][2] == "yes" and "(one of: yes, no, sometimes)" in dialogs[2][1]
    assert console == []
