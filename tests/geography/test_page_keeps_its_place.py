"""
The geography game as a visitor review played it, in Chromium on a real daphne: the
verdict sits with the question it answers, above the next one; a finished game offers
"Play again" and nothing left to answer; the wait for a wallet by link is said once;
voice puts Speak first, in view and focused, and the focus follows each step of a clip.
"""

import pytest

from tests.geography.conftest import MICROPHONE, right_answer, with_microphone_playing
from tests.geography.test_voice_extension import use_extension
from tests.home.test_demo_pages import AXE, violations
from testwallet.speech import spoken_wav

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

PHONE = {"width": 375, "height": 740}


async def focused(page):
    return await page.evaluate("() => document.activeElement?.id ?? ''")


async def top(page, selector):
    return (await page.locator(selector).bounding_box())["y"]


PROGRESS = (
    "() => ['#score', '#round', '#question'].map((s) => document.querySelector(s).textContent).join('/')"
)


async def type_answer(page, text):
    """Type an answer, press Enter, and wait until the game has moved on."""
    before = await page.evaluate(PROGRESS)
    await page.get_by_label("Your answer").fill(text)
    await page.keyboard.press("Enter")
    await page.wait_for_function(f"(before) => ({PROGRESS})() !== before", arg=before, timeout=15000)


async def test_the_verdict_is_shown_with_the_question_it_answers_above_the_next_one(page, daphne_server):
    await page.goto(daphne_server.url + "/geography/")
    asked = await page.locator("#question").text_content()
    expected = await right_answer(page)
    await page.get_by_label("Your answer").fill("Atlantis")
    await page.keyboard.press("Enter")
    await page.locator('#verdict[data-verdict="wrong"]').wait_for(timeout=15000)
    assert await page.locator("#answered").text_content() == asked
    assert f"the answer is {expected}." in await page.locator("#verdict").text_content()
    assert await page.locator("#question").text_content() != asked
    assert await top(page, "#answered") < await top(page, "#verdict") < await top(page, "#question")
    assert await focused(page) == "answer"  # typed on: the focus stays in the answer box


async def test_without_the_script_the_verdict_is_shown_with_the_question_it_answers(browser, daphne_server):
    context = await browser.new_context(java_script_enabled=False)
    try:
        page = await context.new_page()
        await page.goto(daphne_server.url + "/geography/")
        asked = await page.locator("#question").text_content()
        await page.get_by_label("Your answer").fill("Atlantis")
        await page.get_by_role("button", name="Answer", exact=True).click()
        await page.locator("#verdict[data-verdict]").wait_for(timeout=15000)
        assert await page.locator("#answered").text_content() == asked
        assert await top(page, "#verdict") < await top(page, "#question")
    finally:
        await context.close()


async def test_a_finished_game_leaves_nothing_to_answer_and_play_again_has_the_focus(page, daphne_server):
    await page.goto(daphne_server.url + "/geography/")
    for _ in range(10):
        await type_answer(page, "Atlantis")
    assert await page.locator("#question").text_content() == "Game over"
    assert await page.locator("#type-form").is_hidden()
    assert await page.locator("#voice").is_hidden()
    again = page.locator("#new-game")
    assert await again.text_content() == "Play again"
    assert "primary" in await again.get_attribute("class")
    assert await focused(page) == "new-game"
    await page.keyboard.press("Enter")
    await page.locator("#game[data-finished='false']").wait_for(timeout=15000)
    assert await page.locator("#round").text_content() == "1"
    assert await page.locator("#answer").is_visible()
    assert await focused(page) == "answer"
    assert await again.text_content() == "New game"


async def test_the_wait_for_a_wallet_by_link_is_said_once_with_no_stale_notice(page, dev_server):
    await page.set_viewport_size(PHONE)
    await page.route("bringyourownagent:**", lambda route: route.abort())
    await page.goto(dev_server.url + "/geography/")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.get_by_role("button", name="Answer by voice with my AI wallet app").click()
    await page.locator("#open-wallet").wait_for(timeout=15000)
    assert await page.locator("#notice").is_hidden()
    text = await page.locator("main").inner_text()
    assert text.count("Waiting for your wallet") == 1
    # On a phone the spinner shares its line with the words, not alone on one.
    spinner = await page.locator("#waiting .waiting__spinner").bounding_box()
    words = await page.locator("#waiting-text").bounding_box()
    assert words["y"] <= spinner["y"] <= words["y"] + words["height"]
    await page.get_by_role("button", name="Stop waiting and type my answer").click()


async def test_with_voice_on_a_phone_speak_comes_first_in_view_and_the_focus_follows_the_clip(
    mic_page, daphne_server, byoa_extension
):
    await mic_page.set_viewport_size(PHONE)
    await byoa_extension.install(mic_page)
    byoa_extension.allow()
    await mic_page.goto(daphne_server.url + "/geography/")
    byoa_extension.reply("audio.transcribe", {"text": "Atlantis"})
    await use_extension(mic_page)
    assert await focused(mic_page) == "speak"
    assert await mic_page.locator("#voice").is_hidden()  # the ways in step aside
    box = await mic_page.locator("#speak").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    await mic_page.keyboard.press("Enter")
    await mic_page.locator("#stop").wait_for(timeout=10000)
    await mic_page.wait_for_function("() => document.querySelector('#level').value > 0", timeout=10000)
    assert await focused(mic_page) == "stop"
    await mic_page.keyboard.press("Enter")
    await mic_page.locator("#verdict[data-verdict]").wait_for(timeout=10000)
    await mic_page.wait_for_function("() => document.activeElement?.id === 'speak'", timeout=15000)
    assert await mic_page.locator("#transcript").text_content() == "Atlantis"


async def test_speak_explains_the_microphone_before_it_is_asked_for_and_a_pause_ends_the_clip(
    browser_type, browser_type_launch_args, daphne_server, byoa_extension, tmp_path
):
    # A short answer between silences, looped by the fake microphone: only a pause can end the clip early.
    speech = spoken_wav("Peru", tmp_path / "peru.wav", pad_seconds=1.5)
    browser = await browser_type.launch(**with_microphone_playing(browser_type_launch_args, speech))
    try:
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        await byoa_extension.install(page)
        byoa_extension.allow()
        byoa_extension.reply("audio.transcribe", {"text": "Peru"})
        await page.goto(daphne_server.url + "/geography/")
        await use_extension(page)
        note = page.locator("#mic-note")
        await note.filter(has_text="microphone").wait_for(timeout=15000)
        explained = await note.text_content()
        assert explained == (
            "Speak asks your browser for the microphone, then records your answer, and the clip goes to "
            "your AI. It stops when you pause, or after 15 s."
        )
        assert await note.is_visible()
        speak = page.get_by_role("button", name="Speak your answer")
        assert await speak.get_attribute("aria-describedby") == "mic-note"

        await page.keyboard.press("Enter")  # Speak has the focus; nobody presses Stop after it
        await note.filter(has_text="Pause when you are done").wait_for(timeout=15000)
        await page.locator("#verdict[data-verdict]").wait_for(timeout=15000)
        assert "(stopped when you paused)" in await page.locator("#clip-info").text_content()
        assert float(await page.locator("#clip-info").get_attribute("data-seconds")) < 10
        assert (
            await note.text_content() == "Speak records your answer. It stops when you pause, or after 15 s."
        )
    finally:
        await browser.close()


async def test_what_the_ai_heard_is_confirmed_beside_speak_as_text_in_a_polite_line_kept_from_the_start(
    mic_page, daphne_server, byoa_extension
):
    await mic_page.set_viewport_size(PHONE)
    await byoa_extension.install(mic_page)
    byoa_extension.allow()
    await mic_page.add_init_script(path=str(AXE))
    await mic_page.goto(daphne_server.url + "/geography/")
    # Untrusted words from the wallet: shown as text, never as markup.
    heard = "<b>Peru</b>"
    byoa_extension.reply("audio.transcribe", {"text": heard})
    await use_extension(mic_page)
    heard_line = mic_page.locator("#heard")
    assert await heard_line.get_attribute("aria-live") == "polite"
    assert await heard_line.is_visible()  # the line is reserved before anything is heard
    reserved = (await heard_line.bounding_box())["height"]
    assert reserved > 0
    await mic_page.keyboard.press("Enter")
    await mic_page.locator("#stop").wait_for(timeout=15000)
    # The level meter beside Speak moves with the microphone while it records.
    await mic_page.wait_for_function("() => document.querySelector('#level').value > 0", timeout=15000)
    assert await mic_page.locator("#level").get_attribute("aria-label") == "Microphone level"
    await mic_page.keyboard.press("Enter")
    await mic_page.locator("#verdict[data-verdict]").wait_for(timeout=15000)
    await mic_page.locator("#heard", has_text="Heard:").wait_for(timeout=15000)
    assert (await heard_line.inner_text()).strip().startswith("Heard:")
    assert await mic_page.locator("#transcript").text_content() == heard
    assert await mic_page.locator("#heard b").count() == 0
    # Beside Speak: under its row, above the microphone's note, in the line it had before (nothing jumps).
    speak = await mic_page.locator("#speak").bounding_box()
    line = await heard_line.bounding_box()
    note = await mic_page.locator("#mic-note").bounding_box()
    assert speak["y"] + speak["height"] <= line["y"] < note["y"]
    assert line["height"] == reserved
    await mic_page.wait_for_function("() => document.activeElement?.id === 'speak'", timeout=15000)
    assert await violations(mic_page) == []
