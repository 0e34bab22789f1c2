"""
Geography says who answered on every turn, once, in Chromium on a real daphne: each verdict names
who gave the answer it judges (typed by you, heard by the test wallet's scripted stand-in, heard
by your AI) and that the site judged it with no AI; no turn says "AI" where no AI played.
"""

import re

import pytest

from tests.geography.conftest import MICROPHONE, right_answer, speak
from tests.testwallet.panel import press, type_answer

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

#: Any words that name who answered a turn.
WHO = re.compile(r"Typed by you|Heard by the scripted stand-in \(not an AI\)|Heard by your AI|Your model")
JUDGE = "checked by the game"


async def turn(page):
    """Return the shown turn's words: the question answered, the verdict and who answered."""
    return await page.locator("#last-answer").inner_text()


def assert_names_once(words, who):
    assert WHO.findall(words) == [who], words
    assert words.count(JUDGE) == 1, words
    if "not an AI" in who or who == "Typed by you":
        assert "AI" not in words.replace("(not an AI)", "").replace("(no AI)", ""), words


async def test_typed_answers_say_on_every_turn_once_that_you_typed_them_and_the_site_judged(
    page, daphne_server
):
    await page.goto(daphne_server.url + "/geography/")
    for answered in range(10):
        if await page.locator("#game[data-finished='true']").count():
            break
        answer = await right_answer(page) if answered % 2 else "Atlantis"
        await page.get_by_label("Your answer").fill(answer)
        await page.keyboard.press("Enter")
        await (
            page.locator("#round", has_text=str(answered + 2))
            .or_(page.locator("#game[data-finished='true']"))
            .wait_for(timeout=5000)
        )
        assert_names_once(await turn(page), "Typed by you")
    assert answered >= 4


async def test_without_the_script_a_typed_answer_says_once_who_answered(browser, daphne_server):
    context = await browser.new_context(java_script_enabled=False)
    page = await context.new_page()
    await page.goto(daphne_server.url + "/geography/")
    await page.get_by_label("Your answer").fill("Atlantis")
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.locator('#verdict[data-verdict="wrong"]').wait_for(timeout=5000)
    assert_names_once(await turn(page), "Typed by you")
    await context.close()


async def test_the_scripted_stand_in_is_named_once_on_every_voice_turn_and_never_called_an_ai(
    mic_page, dev_server
):
    page = mic_page
    await page.goto(dev_server.url + "/geography/?testwallet=1")
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=15000)
    assert "scripted stand-in (not an AI)" in await page.locator("#mode").text_content()
    for answered in range(2):
        answer = await right_answer(page)
        await speak(page)
        await page.locator(
            "#waiting-text", has_text="The scripted stand-in (not an AI) is listening to your answer…"
        ).wait_for(timeout=15000)
        await type_answer(page, answer)
        await page.locator("#score", has_text=str(answered + 1)).wait_for(timeout=15000)
        assert_names_once(await turn(page), "Heard by the scripted stand-in (not an AI)")


async def test_a_transcription_model_behind_the_test_wallet_is_named_once_as_your_ai(
    mic_page, model_server, model
):
    page = mic_page
    await page.goto(model_server.url + "/geography/?testwallet=1")
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=15000)
    for answered in range(2):
        model.transcript(await right_answer(page))
        await speak(page)
        await page.locator("#score", has_text=str(answered + 1)).wait_for(timeout=15000)
        assert_names_once(await turn(page), "Heard by your AI")
