"""
`?testwallet=1` by hand (DEBUG only): the in-page window.byoa stand-in lets a
person play the voice path without an extension. With no transcription server
named it cannot hear, so it asks what they said in a small form in the banner,
and says that it is a stand-in.
"""

import re

import pytest

from tests.geography.conftest import right_answer

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_a_person_plays_the_voice_path_with_the_labelled_stand_in(mic_page, dev_server):
    page = mic_page
    await page.goto(dev_server.url + "/geography/?testwallet=1")
    assert "not from an AI" in await page.locator(".testwallet-banner").text_content()
    answer = await right_answer(page)
    dialogs = []

    async def visitor(dialog):
        dialogs.append((dialog.type, dialog.message))
        await dialog.accept()

    page.on("dialog", visitor)
    await page.get_by_role("button", name="Answer by voice with my AI (extension)").click()
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=5000)
    await page.get_by_role("button", name="Speak your answer").click()
    await page.locator("#clip-countdown", has_text="14 s left").wait_for(timeout=10000)
    await page.get_by_role("button", name="Stop").click()
    said = page.get_by_role(
        "textbox", name=re.compile(r"^Test wallet \(not a speech recogniser\).*Type what you said")
    )
    await said.fill(answer)
    await page.get_by_role("button", name="Send to the page").click()
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)

    assert [kind for kind, _ in dialogs] == ["confirm"]  # no modal prompt: the banner asked
    assert "Test wallet (not an AI)" in dialogs[0][1]
    assert await page.locator(".testwallet-ask").count() == 0  # the form goes once answered
    assert await page.locator("#transcript").text_content() == answer


async def test_without_debug_the_parameter_adds_no_stand_in(mic_page, daphne_server):
    await mic_page.goto(daphne_server.url + "/geography/?testwallet=1")
    assert await mic_page.locator(".testwallet-banner").count() == 0
    await mic_page.get_by_role("button", name="Answer by voice with my AI (extension)").click()
    await mic_page.locator("#notice", has_text="There is no BYOA extension in this browser").wait_for(
        timeout=5000
    )
    assert await mic_page.locator("#mode").get_attribute("data-mode") == "own"
