"""
Spoken audio to a scored answer with no scripted transcript: espeak-ng says a
country's name into Chromium's fake microphone, the page records it and sends
it over the direct link, the headless wallet transcribes it offline with
PocketSphinx (testwallet.direct.transcriber), and the server judges the text.
"""

import pytest

from tests.geography.conftest import MICROPHONE, question_country, with_microphone_playing
from testwallet.speech import spoken_wav

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

pytest.importorskip(
    "pocketsphinx", reason="the speech extra is not installed: pip install 'visitor-ai[speech]'"
)

# Countries the small US English model hears right when espeak-ng says them
# between 1.5 s of silence, as the page records a clip that stops by itself
# (of the eight tests/testwallet/direct/test_transcriber.py finds; Argentina, Australia,
# Sweden and South Africa go unheard or wrong with that much silence around
# them). A game is drawn until its first question asks for one of these.
HEARD_WELL = {"EG": "Egypt", "GR": "Greece", "NO": "Norway", "GB": "United Kingdom"}
# What the transcriber may say: those, and names it could confuse them with.
VOCABULARY = [*HEARD_WELL.values(), "Argentina", "Australia", "Sweden", "South Africa"]


async def a_game_asking_for_a_country_heard_well(page, server):
    """Start new games in this browser session until the first question's answer is in HEARD_WELL."""
    await page.goto(server.url + "/geography/")
    token = next(c["value"] for c in await page.context.cookies() if c["name"] == "csrftoken")
    question = await page.locator("#question").text_content()
    for _attempt in range(500):  # 7 of the 100 places qualify: failing 500 draws is about 1e-15
        if question_country(question) in HEARD_WELL:
            return question_country(question)
        response = await page.request.post(
            server.url + "/geography/new/",
            data="{}",
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )
        question = (await response.json())["question"]
    raise AssertionError("no game asked for a country in HEARD_WELL")


async def test_a_spoken_country_name_is_transcribed_offline_and_scored(
    page, dev_server, browser_type, browser_type_launch_args, direct_wallet, tmp_path
):
    from testwallet.direct.transcriber import PocketSphinxBackend

    country = await a_game_asking_for_a_country_heard_well(page, dev_server)
    # The name between silences: the page's recorder stops by itself after 1.5 s of it.
    speech = spoken_wav(HEARD_WELL[country], tmp_path / "answer.wav", voice="en-us", pad_seconds=1.5)
    browser = await browser_type.launch(**with_microphone_playing(browser_type_launch_args, speech))
    try:
        context = await browser.new_context()
        await context.add_cookies(await page.context.cookies())  # the same visitor, the same game
        speaker = await context.new_page()
        await speaker.goto(dev_server.url + "/geography/")
        assert question_country(await speaker.locator("#question").text_content()) == country

        await speaker.get_by_role("button", name="Answer by voice with my AI wallet app").click()
        link = speaker.get_by_role("link", name="Open the agent wallet")
        await link.wait_for(timeout=5000)
        wallet = await direct_wallet(await link.get_attribute("href"), PocketSphinxBackend(VOCABULARY))
        assert wallet.opened, wallet.activity
        await speaker.locator("#link-state", has_text="Connected.").wait_for(timeout=5000)
        # As a visitor would: when nothing was heard the question stays, and they say it again.
        for attempt in range(1, 4):
            # Dispatched: headless Chromium drops mouse input after the link (see test_voice_link.py).
            await speaker.get_by_role("button", name="Speak your answer").dispatch_event("click")
            await speaker.wait_for_function(
                "n => performance.getEntriesByName('geography:clip-to-verdict').length >= n",
                arg=attempt,
                timeout=30000,
            )
            if await speaker.locator("#verdict").get_attribute("data-verdict") != "no-answer":
                break

        assert await speaker.locator("#transcript").text_content() == HEARD_WELL[country]
        assert await speaker.locator("#verdict").get_attribute("data-verdict") == "correct"
        assert await speaker.locator("#score").text_content() == "1"
    finally:
        await browser.close()
