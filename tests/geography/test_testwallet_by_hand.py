"""
`?testwallet=1` by hand (DEBUG only): the in-page window.byoa stand-in lets a
person play the voice path without an extension. With no transcription server
named it cannot hear, so it asks what they said in the test wallet's own panel,
and says that it is a stand-in.
"""

import pytest

from tests.geography.conftest import MICROPHONE, right_answer
from tests.testwallet.panel import panel, press, record_native_dialogs, type_answer

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]


async def test_on_a_phone_a_person_plays_the_voice_path_with_the_labelled_stand_in_which_hides_no_wait(
    mic_page, dev_server
):
    page = mic_page
    await page.set_viewport_size({"width": 375, "height": 740})
    await page.goto(dev_server.url + "/geography/?testwallet=1")
    assert "not from an AI" in await page.locator(".testwallet-banner").text_content()
    answer = await right_answer(page)
    dialogs = record_native_dialogs(page)
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    consent = await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=15000)
    await page.get_by_role("button", name="Speak your answer").click()
    await page.locator("#clip-countdown", has_text="14 s left").wait_for(timeout=15000)
    scrolled = await page.evaluate("scrollY")
    await page.get_by_role("button", name="Stop").click()
    asking = panel(page).get_by_role("textbox")
    await asking.wait_for(timeout=15000)
    # The panel asks beside the page's wait, never over it, and moves nothing.
    give_up = await page.locator("#give-up").bounding_box()
    on_top = await page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.id ?? ''",
        [give_up["x"] + give_up["width"] / 2, give_up["y"] + give_up["height"] / 2],
    )
    assert on_top == "give-up"
    assert await page.evaluate("scrollY") == scrolled
    speak = await page.locator("#speak").bounding_box()
    assert speak["y"] >= 0 and speak["y"] + speak["height"] <= 740
    asked = await type_answer(page, answer)
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=15000)

    assert dialogs == []  # asked in the test wallet's panel, never in a native dialog
    assert "not part of this site" in consent and "The BYOA extension stand-in (not an AI)." in consent
    assert "It cannot hear, so it asks you what your clips say." in consent
    assert "The BYOA stand-in is not a speech recogniser" in asked
    assert await panel(page).count() == 0  # the panel goes once answered
    assert await page.locator("#transcript").text_content() == answer
    assert await page.evaluate("scrollY") == scrolled
    assert await page.evaluate("document.activeElement.id") == "speak"


async def test_without_debug_the_parameter_adds_no_stand_in(mic_page, daphne_server):
    await mic_page.goto(daphne_server.url + "/geography/?testwallet=1")
    assert await mic_page.locator(".testwallet-banner").count() == 0
    await mic_page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=5000)
    # No extension, not even a stand-in: voice in this browser is not offered.
    assert await mic_page.locator("#voice").is_hidden()
    assert await mic_page.locator("#mode").get_attribute("data-mode") == "own"
