"""
Twenty Questions says who answered on every turn, once, in Chromium on a real daphne: each history
line and the move waiting for the visitor name exactly one player, as it is: "The site"
in own mode, "The scripted stand-in (not an AI)" with the test wallet's scripted player, "Your
model (<name>)" with a model behind the test wallet; and no line says "AI" where no AI played.
"""

import re

import pytest

from tests.testwallet.relay.model_double import MODEL
from tests.twentyq.conftest import (
    Player,
    ai_move_shown,
    answer_pending,
    idle,
    new_game,
    open_by_hand,
    open_game,
    state,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]

SITE = "The site"
SCRIPTED = "The scripted stand-in (not an AI)"
LABEL = re.compile(r"The site\b|The scripted stand-in \(not an AI\)|Your model \([^()]+\)|Your AI\b")


async def turns(page):
    """Return the text of every turn shown: each history line, then the move waiting (if any)."""
    lines = await page.locator("#history li").all_text_contents()
    pending = (await page.locator("#pending").text_content()).strip()
    return [*lines, *([pending] if pending and not pending.startswith("Your question:") else [])]


async def assert_each_turn_names(page, who):
    """Every turn names exactly one player, `who`, and says "AI" nowhere else."""
    shown = await turns(page)
    assert shown
    for line in shown:
        assert LABEL.findall(line) == [who], line
        if "not an AI" in who or who == SITE:
            assert "AI" not in line.replace(who, ""), line


async def test_own_mode_names_the_site_once_on_every_turn_of_both_modes(page, daphne_server, console):
    player = Player("lion")
    await open_game(page, daphne_server)
    await new_game(page, "ai-asks")
    for entries in range(21):
        await ai_move_shown(page, entries)
        await assert_each_turn_names(page, SITE)
        if (await state(page))["status"] == "over":
            break
        await answer_pending(page, player)
    assert (await state(page))["status"] == "over"

    await new_game(page, "site-thinks")
    for index, key in enumerate(("alive", "animal")):
        await page.locator("#attribute").select_option(key)
        await page.locator("#ask-own").click()
        await page.locator("#history li").nth(index).wait_for(timeout=10000)
        await idle(page)
        await assert_each_turn_names(page, SITE)
    assert console == []


async def test_the_scripted_stand_in_is_named_once_on_every_turn_and_never_called_an_ai(
    page, scripted_server
):
    player = Player("giraffe")
    await open_by_hand(page, scripted_server)
    await new_game(page, "ai-asks")
    for entries in range(21):
        await ai_move_shown(page, entries)
        await assert_each_turn_names(page, SCRIPTED)
        if (await state(page))["status"] == "over":
            break
        await answer_pending(page, player)
    assert (await state(page))["winner"] == "ai"

    await new_game(page, "site-thinks")
    for asked in ("Is it alive?", "Is it an animal?"):
        await page.locator("#question").fill(asked)
        await page.locator("#ask-button").click()
        await page.locator(f"#history li >> text={asked}").wait_for(timeout=10000)
        await idle(page)
        await assert_each_turn_names(page, SCRIPTED)


async def test_a_model_behind_the_test_wallet_is_named_once_on_every_turn(page, model_server, model):
    model.reply("QUESTION: Is it an animal?")
    model.reply("QUESTION: Is it bigger than a car?")
    model.reply("GUESS: an elephant")
    model.reply("QUESTION: Does it live in water?")
    await open_by_hand(page, model_server)
    await new_game(page, "ai-asks")
    for entries, answer in enumerate(("#answer-yes", "#answer-no", "#verdict-wrong")):
        await ai_move_shown(page, entries)
        await assert_each_turn_names(page, f"Your model ({MODEL})")
        await page.locator(answer).click()
        await page.locator("#history li").nth(entries).wait_for(timeout=10000)
    await ai_move_shown(page, 3)
    assert len(await page.locator("#history li").all_text_contents()) == 3
    await assert_each_turn_names(page, f"Your model ({MODEL})")


async def test_without_the_script_own_mode_names_the_site_once_on_every_turn(browser, daphne_server):
    context = await browser.new_context(java_script_enabled=False)
    page = await context.new_page()
    await page.goto(daphne_server.url + "/twentyq/")
    await page.locator("#new-ai-asks").click()
    for entries in range(3):
        await page.locator("#answer-no").click()
        await page.locator("#history li").nth(entries).wait_for(timeout=10000)
        await assert_each_turn_names(page, SITE)
    await page.locator("#new-site-thinks").click()
    for entries, key in enumerate(("alive", "animal")):
        await page.locator("#attribute").select_option(key)
        await page.locator("#ask-own").click()
        await page.locator("#history li").nth(entries).wait_for(timeout=10000)
        await assert_each_turn_names(page, SITE)
    await context.close()
