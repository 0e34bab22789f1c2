"""
The Twenty Questions page with no AI at all, in Chromium on a real daphne: the
manifest in plain words before any click, the ways a plain browser has, and own
mode played to the end in both modes.
"""

import pytest

from sites.home.snippet import END, START
from tests.served import readable_source
from tests.twentyq.conftest import Player, ai_move_shown, answer_pending, new_game, open_game, state, way_ids

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_the_manifest_is_summed_up_before_any_click_and_shown_whole_a_click_away(
    page, daphne_server, console
):
    await open_game(page, daphne_server)
    summary = page.locator("#manifest-plain summary")
    shown = await summary.inner_text()
    assert "Twenty Questions" in shown and "nothing is asked until you click" in shown
    table = page.locator("#manifest-plain dl")
    assert await table.is_hidden()
    await summary.click()
    text = await table.inner_text()
    assert "2 models" in text and "at most 30 uses a minute" in text
    assert console == []


async def test_how_this_page_works_shows_exactly_the_lines_of_the_served_script(page, daphne_server, console):
    await open_game(page, daphne_server)
    shown = await page.locator("#integration-snippet").text_content()
    served = readable_source(daphne_server, "twentyq/page.js").splitlines()
    assert shown == "\n".join(served[served.index(START) + 1 : served.index(END)])
    assert "new WayChooser([" in shown


async def test_a_browser_without_wallets_is_offered_the_link_then_own_mode_and_own_mode_answers(
    page, no_builtin_model, daphne_server, console
):
    await open_game(page, daphne_server)
    assert await way_ids(page) == ["link", "own"]
    assert await page.locator("#way-status").text_content() == "Answering: the site's own questions"
    assert await page.locator("#ways button[data-way='own']").get_attribute("aria-pressed") == "true"
    assert console == []


async def test_own_mode_you_think_the_site_asks_until_the_game_ends(page, daphne_server, console):
    player = Player("giraffe")
    await open_game(page, daphne_server)
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    for turn in range(1, 21):
        game = await state(page)
        if game["status"] == "over":
            break
        assert game["pending"]["by"] == "site"
        await answer_pending(page, player)
        await ai_move_shown(page, turn)
    game = await state(page)
    assert game["status"] == "over"
    assert game["winner"] == "ai"
    assert game["history"][-1]["kind"] == "guess" and game["history"][-1]["answer"] == "right"
    assert (
        await page.locator("#game-result").text_content()
        == f"The site found it in {game['turnsUsed']} questions."
    )
    items = await page.locator("#history li").all_text_contents()
    assert len(items) == len(game["history"])
    assert items[0].startswith("The site asked: ")  # the list numbers it, once
    assert await page.locator("#answer-form").is_hidden()
    assert console == []


async def test_when_the_site_loses_it_asks_what_you_were_thinking_of_and_shows_it_once(
    page, daphne_server, console
):
    player = Player("giraffe")
    await open_game(page, daphne_server)
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    for turn in range(1, 41):
        game = await state(page)
        if game["status"] == "over":
            break
        if game["pending"]["kind"] == "guess":
            await page.locator("#verdict-wrong").click()  # never the thing it names: the site cannot win
        else:
            await page.locator(f"#answer-{player.answer(game['pending']['text'])}").click()
        await ai_move_shown(page, turn)
    game = await state(page)
    assert game["status"] == "over" and game["winner"] == "visitor"
    assert (await page.locator("#reveal").inner_text()).count("You win") == 1
    assert await page.locator("#game-result").text_content() == "The site did not find it in 20 questions."
    await page.get_by_label("What were you thinking of?").fill("<b>a lighthouse</b>")
    await page.get_by_role("button", name="Show it").click()
    assert await page.locator("#reveal-name").text_content() == "<b>a lighthouse</b>"  # as text, never markup
    assert await page.locator("#reveal-name b").count() == 0
    assert (await page.locator("#game-result").text_content()).endswith(
        "You were thinking of <b>a lighthouse</b>."
    )
    assert await page.locator("#thinking-form").is_hidden()
    assert await page.evaluate("() => document.activeElement.id") == "play-again"
    assert console == []


async def test_own_mode_the_site_thinks_you_ask_from_the_list_and_guess_until_the_game_ends(
    page, daphne_server, console
):
    await open_game(page, daphne_server)
    await new_game(page, "site-thinks")
    assert await page.locator("#question-form").is_hidden()  # no AI: only the site's questions
    from sites.twentyq import catalog

    things = list(catalog.load().things)
    total = len(things)
    keys = [attribute.key for attribute in catalog.load().attributes]
    asked = 0
    assert await page.locator("#candidates").text_content() == f"{total} of {total} things still fit"
    while len(things) > 1 and asked < 12:
        # The question that splits the remaining things most evenly.
        key = min(keys, key=lambda k: abs(sum(t.attributes[k] for t in things) - len(things) / 2))
        keys.remove(key)
        await page.locator("#attribute").select_option(key)
        await page.locator("#ask-own").click()
        asked += 1
        await page.locator("#history li").nth(asked - 1).wait_for(timeout=15000)
        answer = (await state(page))["history"][-1]["answer"]
        assert answer in ("yes", "no")
        things = [t for t in things if t.attributes[key] == (answer == "yes")]
        # How close the game is: a used pip per question, and the things that still fit, narrowing.
        assert await page.locator("#q-track li[data-used]").count() == asked
        assert (
            await page.locator("#candidates").text_content() == f"{len(things)} of {total} things still fit"
        )
    for thing in things:
        game = await state(page)
        if game["status"] == "over":
            break
        await page.locator("#guess").fill(thing.name)
        await page.locator("#guess-button").click()
        await page.locator("#history li").nth(len(game["history"])).wait_for(timeout=15000)
    game = await state(page)
    assert game["status"] == "over" and game["winner"] == "visitor"
    assert game["history"][-1]["answer"] == "right"
    assert (await page.locator("#game-result").text_content()).startswith("You found it in ")
    # The end is a reveal: what the site thought of, large, above Play again.
    assert await page.locator("#reveal").is_visible()
    assert await page.locator("#reveal-name").text_content() == game["secret"]["name"]
    assert await page.locator("#guess-form").is_hidden()
    assert console == []
