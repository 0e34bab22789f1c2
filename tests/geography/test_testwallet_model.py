"""
Geography by hand (`?testwallet=1`, DEBUG) with a transcription server named
(TESTWALLET_TRANSCRIBE_URL, here a fake one): the in-page window.byoa stand-in
sends the recorded clip through the site's relay and the page gets what the
server heard, with no question to the person.
"""

import pytest

from tests.geography.conftest import MICROPHONE, right_answer
from tests.testwallet.panel import panel, press, record_native_dialogs

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]


async def test_spoken_answer_is_transcribed_by_the_named_server_through_the_relay(
    mic_page, model_server, model
):
    page = mic_page
    dialogs = record_native_dialogs(page)
    await page.goto(model_server.url + "/geography/?testwallet=1")
    answer = await right_answer(page)
    model.transcript(answer)
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    consent = await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=5000)
    await page.get_by_role("button", name="Speak your answer").click()
    await page.locator("#clip-countdown", has_text="14 s left").wait_for(timeout=10000)
    await page.get_by_role("button", name="Stop").click()
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)

    assert await page.locator("#transcript").text_content() == answer
    assert await panel(page).count() == 0  # no question about the clip: the server heard it
    assert "Your own transcription server transcribes your clips." in consent  # it asks for no texts
    assert dialogs == []
    ((path, sent),) = model.requests
    assert path == "transcribe" and sent["model"] == "double-whisper"
    assert sent["file"] > 16000 * 2  # more than a second of 16 kHz 16-bit audio
    assert page.console_problems == []
