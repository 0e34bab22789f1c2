"""The game in Chromium with no wallet at all: typed answers, a whole game, and what the page shows first."""

import pytest

from sites.home.snippet import END, START
from tests.geography.conftest import question_country, right_answer
from tests.served import readable_source

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.fixture
async def game(page, daphne_server):
    page.console_problems = []
    page.on("pageerror", lambda e: page.console_problems.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.console_problems.append(m.text))
    await page.goto(daphne_server.url + "/geography/")
    return page


async def type_answer(page, text):
    round_before = await page.locator("#round").text_content()
    await page.get_by_label("Your answer").fill(text)
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.wait_for_function(
        "before => document.querySelector('#round').textContent !== before"
        " || document.querySelector('#question').textContent.startsWith('Game over')",
        arg=round_before,
        timeout=15000,
    )


async def test_a_whole_game_is_played_by_typing(game):
    assert await game.locator("#mode").text_content() == "Answering by typing"
    for round_number in range(1, 11):
        assert await game.locator("#round").text_content() == str(round_number)
        await type_answer(game, await right_answer(game) if round_number % 2 else "Atlantis")
    assert await game.locator("#question").text_content() == "Game over"
    # The score is said once, large, in the result: not twice.
    assert (await game.locator("main").inner_text()).count("5 of 10") == 1
    assert await game.locator("#score").text_content() == "5"
    await game.get_by_role("button", name="Play again").click()
    await game.locator("#round", has_text="1").wait_for()
    await game.locator("#score", has_text="0").wait_for()
    assert "?" in await game.locator("#question").text_content()
    assert game.console_problems == []


async def test_a_wrong_answer_says_what_was_named_and_what_was_right(game):
    expected = await right_answer(game)
    await type_answer(game, "Atlantis" if expected != "Chile" else "Peru")
    verdict = game.locator("#verdict")
    assert await verdict.get_attribute("data-verdict") == "wrong"
    assert f"the answer is {expected}." in await verdict.text_content()


async def test_answers_in_slovak_are_judged_with_slovak_names(game):
    await game.get_by_label("I answer in").select_option("sk")
    await game.locator("#question", has_text="krajin").wait_for(timeout=15000)
    await type_answer(game, await right_answer(game, "sk"))
    assert await game.locator("#verdict").get_attribute("data-verdict") == "correct"


async def test_what_the_game_asks_of_the_ai_is_shown_before_any_click(game):
    asks = await game.locator("#asks").text_content()
    for words in (
        "Family geography game",
        "English, Russian and Slovak",
        "at most 15 seconds",
        "at most 40 uses a minute",
        "Recordings of your voice",
        "0.05 USD",
    ):
        assert words in asks


async def test_how_this_page_works_shows_exactly_the_lines_of_the_served_script(game, daphne_server):
    shown = await game.locator("#integration-snippet").text_content()
    served = readable_source(daphne_server, "geography/game.js").splitlines()
    assert shown == "\n".join(served[served.index(START) + 1 : served.index(END)])
    assert "requestGrant(provider, MANIFEST)" in shown and "startLink({ manifest: 'geography'" in shown


async def test_a_judged_round_shows_the_place_by_its_flag_and_a_globe_turned_to_it(game):
    assert await game.locator("#reveal").is_hidden()  # nothing tells the answer before the round
    expected = await right_answer(game)
    code = question_country(await game.locator("#question").text_content()).lower()
    await type_answer(game, "Atlantis")
    assert await game.locator("#reveal").is_visible()
    for picture, folder in (("#reveal-flag", "flags"), ("#reveal-map", "maps")):
        # The picture is fetched after the verdict is drawn: wait (bounded) until it has loaded.
        image = await game.locator(picture).element_handle()
        await game.wait_for_function(
            "(img) => img.complete && img.naturalWidth > 0", arg=image, timeout=15000
        )
        src = await image.evaluate("(img) => img.currentSrc")
        assert f"/static/geography/{folder}/{code}." in src, (picture, src)
    assert await game.locator("#reveal-name").text_content() == expected


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
async def test_a_wrong_answer_shakes_and_a_right_one_springs_unless_the_visitor_asks_for_less_motion(
    game, motion
):
    await game.emulate_media(reduced_motion=motion)
    card = game.locator("#last-answer")
    await type_answer(game, "Atlantis")
    assert await card.get_attribute("data-verdict") == "wrong"
    wrong = await card.evaluate("(card) => getComputedStyle(card).animationName")
    await type_answer(game, await right_answer(game))
    right = await card.evaluate("(card) => getComputedStyle(card).animationName")
    if motion == "reduce":
        assert (wrong, right) == ("none", "none")
    else:
        assert (wrong, right) == ("verdict-shake", "verdict-spring")


async def test_the_result_screen_lists_the_missed_ones_with_their_answers_and_copies_a_result_to_share(
    game,
):
    await game.context.grant_permissions(["clipboard-read", "clipboard-write"])
    assert await game.locator("#result").is_hidden()
    missed = []
    for round_number in range(1, 11):
        if round_number in (3, 7):
            missed.append(await right_answer(game))
            await type_answer(game, "Atlantis")
        else:
            await type_answer(game, await right_answer(game))
    result = game.locator("#result")
    assert await result.is_visible()
    assert await game.locator("#result-score").text_content() == "8"
    assert [
        text.strip().rsplit("? ", 1)[1] for text in await game.locator("#missed li").all_text_contents()
    ] == missed
    assert await game.locator("#track li[data-state='missed']").count() == 2
    share = await game.locator("#share-text").input_value()
    assert share == "Voice geography: 8/10\n🟩🟩🟥🟩🟩🟩🟥🟩🟩🟩"
    assert not any(name in share for name in missed)  # a result to share, not the answers
    await game.get_by_role("button", name="Copy").click()
    await game.locator("#copy-status", has_text="Copied").wait_for(timeout=15000)
    assert await game.evaluate("() => navigator.clipboard.readText()") == share
    await game.get_by_role("button", name="Play again").click()
    await result.wait_for(state="hidden", timeout=10000)  # the round's "1" would match "10" already shown
    assert await game.locator("#round").text_content() == "1"
    assert await game.locator("#reveal").is_hidden()
    assert await game.locator("#track li[data-state]").count() == 0
    assert game.console_problems == []
