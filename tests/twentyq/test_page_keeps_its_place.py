"""
Twenty Questions as a visitor review played it, in Chromium on a real daphne with no
AI: the game's heading follows the mode started in place, no page state scrolls
sideways on a phone, the focus lands on the next control after every move (so the
keyboard alone plays without hunting for it), the lines say who played once and
truly, and a game's end offers "Play again".
"""

from pathlib import Path

import pytest

from tests.twentyq.conftest import Player, ai_move_shown, answering, new_game, open_game, state

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
AXE = Path(__file__).resolve().parents[2] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"


async def focused(page):
    """Return the id of the focused element ('' for none, 'BODY' when the focus fell to the page)."""
    return await page.evaluate(
        "() => document.activeElement === document.body ? 'BODY' : (document.activeElement?.id ?? '')"
    )


async def serious_violations(page):
    """Run axe-core (loaded as an init script) on the page; return its serious or critical findings."""
    result = await page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['id']}: {v['impact']} ({v['nodes'][0]['target']})"
        for v in result["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


async def sideways(page):
    """Return how far the page scrolls sideways (0 when it does not)."""
    return await page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


async def test_a_game_started_in_place_is_headed_by_its_own_mode(page, daphne_server, console):
    await open_game(page, daphne_server)
    await new_game(page, "ai-asks")
    assert await page.locator("#game-heading").text_content() == "You think, the site asks"
    await new_game(page, "site-thinks")
    assert await page.locator("#game-heading").text_content() == "The site thinks, you ask"
    await new_game(page, "ai-asks")
    assert await page.locator("#game-heading").text_content() == "You think, the site asks"
    assert console == []


async def test_on_a_phone_no_game_state_scrolls_sideways(page, daphne_server, console):
    await page.set_viewport_size(PHONE)
    await open_game(page, daphne_server)
    assert await sideways(page) == 0
    await new_game(page, "site-thinks")
    assert await page.locator("#attribute").is_visible()
    assert await sideways(page) == 0
    box = await page.locator("#attribute").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert await sideways(page) == 0
    assert console == []


async def test_the_keyboard_alone_answers_every_question_with_the_focus_on_the_next_answer(
    page, daphne_server, console
):
    player = Player("giraffe")
    await page.set_viewport_size(PHONE)
    await open_game(page, daphne_server)
    await page.locator("#new-ai-asks").focus()
    await page.keyboard.press("Enter")
    await ai_move_shown(page, 0)
    for entries in range(1, 21):
        game = await state(page)
        if game["status"] == "over":
            break
        pending = game["pending"]
        if pending["kind"] == "question":
            assert await focused(page) == "answer-yes"
            wanted = f"answer-{player.answer(pending['text'])}"
        else:
            assert await focused(page) == "verdict-right"
            wanted = "verdict-right" if player.is_it(pending["text"]) else "verdict-wrong"
        # From the focused first answer, Tab reaches the others: at most three presses.
        for _ in range(4):
            if await focused(page) == wanted:
                break
            await page.keyboard.press("Tab")
        assert await focused(page) == wanted
        await page.keyboard.press("Enter")
        await ai_move_shown(page, entries)
        # The question to answer is in view, with the button that answers it.
        assert (
            await page.locator("#pending").evaluate(
                "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
            )
            or (await state(page))["status"] == "over"
        )
    game = await state(page)
    assert (game["status"], game["winner"]) == ("over", "ai")
    assert await focused(page) == "play-again"
    assert await page.locator("#play-again").is_visible()
    await page.keyboard.press("Enter")
    await page.locator(f"#game:not([data-game-id='{game['id']}'])").wait_for(timeout=15000)
    assert (await state(page))["mode"] == "ai-asks"
    assert console == []


async def test_the_sites_questions_are_asked_with_enter_and_the_focus_stays_on_the_list(
    page, daphne_server, console
):
    await open_game(page, daphne_server)
    await new_game(page, "site-thinks")
    await page.locator("#attribute").focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")
    await page.locator("#history li").first.wait_for(timeout=15000)
    await page.locator("#ask-own:enabled").wait_for(timeout=15000)
    assert await focused(page) == "attribute"
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")
    await page.locator("#history li").nth(1).wait_for(timeout=15000)
    await page.locator("#ask-own:enabled").wait_for(timeout=15000)
    assert await focused(page) == "attribute"
    await page.locator("#guess").fill("a teapot")
    await page.keyboard.press("Enter")
    await page.locator("#history li").nth(2).wait_for(timeout=15000)
    await page.locator("#guess-button:enabled").wait_for(timeout=15000)
    assert await focused(page) == "guess"
    assert console == []


async def test_own_mode_lines_name_the_site_once_and_are_numbered_once(page, daphne_server, console):
    await open_game(page, daphne_server)
    assert await page.locator("#new-ai-asks").text_content() == "New game: you think, the site asks"
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert (await page.locator("#pending").text_content()).startswith("The site asks: ")
    await page.locator("#answer-no").click()
    await ai_move_shown(page, 1)
    first = await page.locator("#history li").first.text_content()
    assert first.startswith("The site asked: ") and first.endswith(" You said no.")
    assert "AI" not in (await page.locator("#game").inner_text()).replace("The site", "")
    assert console == []


async def test_a_wrong_guess_and_the_games_end_read_as_sentences(page, daphne_server, console):
    await open_game(page, daphne_server)
    await new_game(page, "site-thinks")
    # A thing that is in no catalog: always wrong.
    await page.locator("#guess").fill("a unicorn.")
    await page.locator("#guess-button").click()
    await page.locator("#history li").first.wait_for(timeout=15000)
    assert await page.locator("#history li").first.text_content() == "You guessed: a unicorn. Wrong."
    secret = None
    for turn in range(25):
        game = await state(page)
        if game["status"] == "over":
            secret = game["secret"]["name"]
            break
        await page.locator("#guess").fill(f"unicorn number {turn}")
        await page.locator("#guess-button").click()
        await page.locator("#history li").nth(len(game["history"])).wait_for(timeout=15000)
    assert secret is not None
    assert (
        await page.locator("#game-result").text_content()
        == f"Out of questions: the site wins. The answer was: {secret}."
    )
    assert await page.locator("#play-again").is_visible()
    assert console == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "375x740"])
async def test_who_plays_is_a_status_changed_by_keyboard_and_the_first_move_is_on_the_first_screen(
    page, debug_server, console, viewport
):
    await page.set_viewport_size(viewport)
    await page.add_init_script(path=str(AXE))
    await page.goto(debug_server.url + "/twentyq/?testwallet=1")  # five ways, and the banner above
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    change = page.get_by_role("button", name="Change who plays")
    assert await change.get_attribute("aria-expanded") == "false"
    assert await page.locator("#ways button.way").count() == 5
    assert not await page.locator("#ways").is_visible()  # folded into the status
    status, button = await page.locator("#way-status").bounding_box(), await change.bounding_box()
    assert status["height"] < 60  # one compact line, Change beside it
    assert button["y"] < status["y"] + status["height"]
    for selector in ("#way-status", "#change-way", "#new-ai-asks"):
        box = await page.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= viewport["height"], selector
    assert await serious_violations(page) == []

    await change.focus()
    await page.keyboard.press("Enter")
    assert await change.get_attribute("aria-expanded") == "true"
    assert await page.evaluate("() => document.activeElement.dataset.way") == "own"  # the one answering now
    assert all([await b.is_visible() for b in await page.locator("#ways button.way").all()])
    assert await serious_violations(page) == []
    assert await sideways(page) == 0
    await page.keyboard.press("Escape")
    assert await change.get_attribute("aria-expanded") == "false"
    assert await focused(page) == "change-way"
    assert not await page.locator("#ways").is_visible()

    await page.keyboard.press("Enter")
    await change.focus()  # back on Change, the ways still open: Escape there folds them too
    await page.keyboard.press("Escape")
    assert await change.get_attribute("aria-expanded") == "false"

    await page.keyboard.press("Enter")
    await page.locator("#ways button[data-way='builtin']").click()
    assert "built into this browser" in await answering(page, "builtin", timeout=15000)
    assert await change.get_attribute("aria-expanded") == "false"
    assert await focused(page) == "change-way"  # the focus stays on a shown control
    assert await page.locator("#change-way").is_visible()
    assert await sideways(page) == 0
    assert await serious_violations(page) == []
    assert console == []


async def test_who_plays_names_the_ways_in_plain_words_and_the_developers_panel_gives_their_protocols(
    page, debug_server, console
):
    await page.goto(debug_server.url + "/twentyq/?testwallet=1")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    names = {
        await b.get_attribute("data-way"): await b.text_content()
        for b in await page.locator("#ways button.way").all()
    }
    assert names["extension"] == "Your AI in this browser"
    assert names["link"] == "Your AI wallet app"
    assert names["builtin"] == "The AI built into this browser"
    assert not [name for name in names.values() if "BYOA" in name]
    await page.locator("#how-it-works summary").click()
    panel = await page.locator("#way-names").inner_text()
    assert "“Your AI in this browser”: the BYOA extension, window.byoa." in panel
    assert "“Your AI wallet app”: a BYOA wallet by link" in panel
    assert console == []
