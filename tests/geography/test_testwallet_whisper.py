"""
Geography by hand (`?testwallet=1`, DEBUG) heard by Whisper: the in-page
window.byoa stand-in sends the recorded clip through the site's relay to the
test wallet's transcription server (testwallet.transcribe), which
TESTWALLET_TRANSCRIBE_URL names; the page gets what Whisper heard.
"""

import pytest

from tests.geography.conftest import MICROPHONE
from tests.testwallet.panel import panel, press, record_native_dialogs
from tests.whisper_models import transcription_server, whisper_model
from testwallet.server import DaphneServer

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]


@pytest.fixture(scope="module")
def whisper_site(tmp_path_factory):
    """The project under daphne with DEBUG on, its relay's transcriptions going to a Whisper server."""
    from testwallet.direct import WhisperBackend

    with transcription_server(WhisperBackend(whisper_model("base"), vocabulary={"en": ["Peru"]})) as url:
        server = DaphneServer(
            "sites.config.asgi:application",
            env={"DJANGO_DEBUG": "1", "TESTWALLET_MODEL_URL": "", "TESTWALLET_TRANSCRIBE_URL": url},
            workdir=tmp_path_factory.mktemp("whisper-relay-daphne"),
        )
        with server:
            yield server


async def test_a_spoken_answer_reaches_whisper_through_the_relay_and_comes_back_as_text(
    mic_page, whisper_site
):
    page = mic_page
    dialogs = record_native_dialogs(page)
    await page.goto(whisper_site.url + "/geography/?testwallet=1")
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=5000)
    await page.get_by_role("button", name="Speak your answer").click()
    await page.locator("#clip-countdown", has_text="13 s left").wait_for(
        timeout=10000
    )  # "Peru, Peru, ..." (conftest)
    await page.get_by_role("button", name="Stop").click()
    await page.locator("#verdict[data-verdict]").wait_for(timeout=60000)
    assert "peru" in (await page.locator("#transcript").text_content()).casefold()
    assert await panel(page).count() == 0  # no question about what was said: the server heard the clip
    assert dialogs == []
    assert page.console_problems == []
