"""
Spoken answers heard by Whisper, in English, Russian and Slovak, end to end:
espeak-ng says a country's name into Chromium's fake microphone, the page's
AudioWorklet recorder makes the clip, the page sends it over the direct link to
a headless wallet transcribing with Whisper (testwallet.direct.whisper), and the
server judges the text. Also: a silent clip is no answer, and a clip over the
manifest's 15 s never reaches the wallet.
"""

import base64
import io
import wave
from array import array

import pytest
import pytest_asyncio

from byoa.wire import wav as wallet_wav
from sites.geography import names, places
from tests.geography.conftest import MICROPHONE, question_country, with_microphone_playing
from tests.whisper_models import whisper_model
from testwallet.direct import WhisperBackend
from testwallet.speech import spoken_wav

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

# Per language: the espeak-ng voice, and a country whose name Whisper base heard right in every
# condition of benchmarks/transcribers.py's full run (free-form and with the vocabulary, said directly
# and through the page's recorder; README.md has the table): "Франция" and "Francúzsko" rather than
# "Германия" and "Austrália", which it heard only with the vocabulary, and which a loaded CI's
# recording once turned into "Димандия". The wrong answer of a language is the same name said while
# the question asks for another country.
SPOKEN = {"en": ("en-us", "AR"), "ru": ("ru", "FR"), "sk": ("sk", "FR")}


def vocabulary(language):
    """Names of the game's countries in a language, the spoken one among them: what a wallet would be given.

    Thirty, so that they fit in one Whisper prompt (a longer vocabulary is decoded once per part,
    which a CI machine shared with other work may not finish within the server's 20 s call timeout).
    """
    countries = sorted({place.country for place in places.all_places().values()} - {SPOKEN[language][1]})
    return [names.display_name(country, language) for country in [SPOKEN[language][1], *countries[:29]]]


@pytest.fixture(scope="module")
def whisper_backend():
    """One backend for the module: the base model (loaded once per session), each language's names."""
    return WhisperBackend(
        whisper_model("base"), vocabulary={language: vocabulary(language) for language in SPOKEN}
    )


class CountingBackend:
    """The Whisper backend, recording each clip the wallet is asked to hear."""

    def __init__(self, backend):
        self.backend, self.clips = backend, []
        self.provider_kind, self.receipt_provider = backend.provider_kind, backend.receipt_provider

    def skills(self):
        return self.backend.skills()

    def model_codes(self):
        return []

    def estimated_cost(self, skill, input, params):
        return self.backend.estimated_cost(skill, input, params)

    async def run(self, skill, input, params):
        self.clips.append((base64.b64decode(input["audio"]["base64"]), params))
        return await self.backend.run(skill, input, params)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def speaking(browser_type, browser_type_launch_args, tmp_path_factory):
    """Return a function launching (once per sound) Chromium whose microphone plays a WAV file."""
    browsers = {}

    async def launch(name, make):
        if name not in browsers:
            path = make(tmp_path_factory.mktemp("speech") / f"{name}.wav")
            browsers[name] = await browser_type.launch(
                **with_microphone_playing(browser_type_launch_args, path)
            )
        return browsers[name]

    yield launch
    for browser in browsers.values():
        await browser.close()


def said(language):
    """Return a maker of the sound of a language's country name: 1.5 s of silence, the name, 6.5 s of silence.

    Chromium's fake microphone plays it in a loop from the browser's start, so a recording
    begins anywhere in it: most often in a silence, when the clip has the whole name (the recorder
    stops by itself 1.5 s after it); sometimes inside the name, when it has only its end.
    """
    voice, country = SPOKEN[language]

    def make(path):
        spoken_wav(names.display_name(country, language), path, voice=voice, pad_seconds=1.5)
        with wave.open(str(path), "rb") as clip:
            frames = clip.readframes(clip.getnframes())
        with wave.open(str(path), "wb") as clip:
            clip.setnchannels(1), clip.setsampwidth(2), clip.setframerate(16000)
            clip.writeframes(frames + bytes(2 * 16000 * 5))
        return path

    return make


def began_in_silence(clip):
    """Return whether a recorded WAV starts with 0.1 s of silence (so it holds the whole name, not its end)."""
    with wave.open(io.BytesIO(clip)) as recorded:
        start = array("h", recorded.readframes(1600))
    return max(map(abs, start), default=0) < 300


async def a_game_asking(page, server, language, wanted, reload=True):
    """Open the game in ``language`` and start new games until ``wanted(country)`` holds for the question."""
    if reload:
        await page.goto(server.url + "/geography/")
    token = next(c["value"] for c in await page.context.cookies() if c["name"] == "csrftoken")
    headers = {"Content-Type": "application/json", "X-CSRFToken": token}
    response = await page.request.post(
        server.url + "/geography/language/", data=f'{{"language": "{language}"}}', headers=headers
    )
    question = (await response.json())["question"]
    for _attempt in range(1000):  # one place in ~80 asks for a given country: 1000 misses are ~1e-6
        if wanted(question_country(question)):
            if reload:
                await page.reload()
            return question_country(question)
        question = (
            await (await page.request.post(server.url + "/geography/new/", data="{}", headers=headers)).json()
        )["question"]
    raise AssertionError("no game asked for the wanted country")


async def paired(page, direct_wallet, backend):
    await page.get_by_role("button", name="Answer by voice with my AI wallet app").click()
    link = page.get_by_role("link", name="Open the agent wallet")
    await link.wait_for(timeout=5000)
    wallet = await direct_wallet(await link.get_attribute("href"), backend)
    assert wallet.opened, wallet.activity
    await page.locator("#link-state", has_text="Connected.").wait_for(timeout=5000)
    return wallet


async def answer_by_voice(page, answered=0):
    """Click Speak and wait for the verdict of the clip the recorder stops by itself; return it."""
    # Dispatched: headless Chromium drops mouse input after the link (see test_voice_link.py).
    await page.get_by_role("button", name="Speak your answer").dispatch_event("click")
    verdict = page.locator("#verdict[data-verdict]")
    failed = page.locator("#notice", has_text="did not answer")
    await page.wait_for_function(
        "n => performance.getEntriesByName('geography:clip-to-verdict').length > n || "
        "document.querySelector('#mode').dataset.mode === 'own'",
        arg=answered,
        timeout=120000,
        polling=100,  # not on every animation frame: the wait lasts a recording and a decoding
    )
    assert not await failed.is_visible(), "the wallet did not answer within the server's call timeout"
    return await verdict.get_attribute("data-verdict")


async def whole_name_answered(page, server, backend, language, wanted):
    """Answer by voice until the clip holds the whole spoken name (at most 5 tries); return the verdict.

    Each try is a game whose question ``wanted`` accepts (set in this browser session's state:
    the verdict is the server's, whatever the page still shows).
    """
    for attempt in range(5):  # a recording starts inside the name about 1 time in 9
        await a_game_asking(page, server, language, wanted, reload=False)
        verdict = await answer_by_voice(page, attempt)
        if began_in_silence(backend.clips[-1][0]):
            return verdict
    raise AssertionError("five recordings in a row began inside the name")


@pytest.mark.parametrize("language", list(SPOKEN))
async def test_a_spoken_country_name_is_heard_by_whisper_and_scored_right(
    language, speaking, dev_server, direct_wallet, whisper_backend
):
    browser = await speaking(language, said(language))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        country = SPOKEN[language][1]
        await a_game_asking(page, dev_server, language, lambda asked: asked == country)
        backend = CountingBackend(whisper_backend)
        await paired(page, direct_wallet, backend)
        verdict = await whole_name_answered(
            page, dev_server, backend, language, lambda asked: asked == country
        )
        assert verdict == "correct", await page.locator("#transcript").text_content()
        assert backend.clips[-1][1] == {"language": language}
    finally:
        await context.close()


# In one language only: every language's name is heard right above, and what the wallet heard is
# then judged by the same code whatever the language (tests/geography/test_scoring.py).
@pytest.mark.parametrize("language", ["ru"])
async def test_a_spoken_name_of_another_country_is_scored_wrong(
    language, speaking, dev_server, direct_wallet, whisper_backend
):
    browser = await speaking(language, said(language))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        other = lambda asked: asked != SPOKEN[language][1]  # noqa: E731
        await a_game_asking(page, dev_server, language, other)
        backend = CountingBackend(whisper_backend)
        await paired(page, direct_wallet, backend)
        verdict = await whole_name_answered(page, dev_server, backend, language, other)
        assert verdict == "wrong", await page.locator("#transcript").text_content()
    finally:
        await context.close()


async def test_a_silent_clip_is_heard_as_no_answer_and_the_question_stays(
    speaking, dev_server, direct_wallet, whisper_backend
):
    def silence(path):
        path.write_bytes(wallet_wav.silent_clip(20))
        return path

    browser = await speaking("silence", silence)
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(dev_server.url + "/geography/")
        question = await page.locator("#question").text_content()
        backend = CountingBackend(whisper_backend)
        await paired(page, direct_wallet, backend)
        await page.get_by_role("button", name="Speak your answer").dispatch_event("click")
        await page.locator("#clip-countdown", has_text="13 s left").wait_for(timeout=10000)
        await page.get_by_role("button", name="Stop").dispatch_event("click")
        await page.wait_for_function(
            "n => performance.getEntriesByName('geography:clip-to-verdict').length >= n",
            arg=1,
            timeout=120000,
        )
        assert await page.locator("#verdict").get_attribute("data-verdict") == "no-answer"
        assert await page.locator("#transcript").text_content() == ""
        assert await page.locator("#question").text_content() == question
        assert len(backend.clips) == 1  # it was heard, as nothing
    finally:
        await context.close()


async def test_a_16_second_clip_is_refused_before_the_wallet_hears_it(
    speaking, dev_server, direct_wallet, whisper_backend, tmp_path
):
    browser = await speaking("en", said("en"))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(dev_server.url + "/geography/")
        backend = CountingBackend(whisper_backend)
        await paired(page, direct_wallet, backend)
        # The name said once and its samples repeated past 16 s: the same clip as saying it thirty
        # times, without resampling half a minute of speech.
        said_once = wallet_wav.read(
            spoken_wav("Argentina", tmp_path / "once.wav", voice="en-us").read_bytes()
        ).samples
        long_clip = wallet_wav.write(said_once * (16 * 16000 * 2 // len(said_once) + 2))
        assert wallet_wav.clip_seconds(long_clip) > 16
        long_clip = (
            long_clip[:44] + long_clip[44 : 44 + 16 * 16000 * 2]
        )  # 16 s of speech, the header says more
        token = next(c["value"] for c in await context.cookies() if c["name"] == "csrftoken")
        response = await page.request.post(
            dev_server.url + "/geography/clip/",
            data=long_clip,
            headers={"Content-Type": "audio/wav", "X-CSRFToken": token},
        )
        assert response.status == 413
        assert (await response.json())["error"] in ("clip-too-long", "clip-too-large")
        assert backend.clips == []
    finally:
        await context.close()
