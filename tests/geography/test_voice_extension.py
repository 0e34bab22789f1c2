"""
Answering by voice through the BYOA extension, in Chromium on a real daphne:
the page's recorder takes the fake microphone's speech, the clip goes to the
test wallet's window.byoa, and the transcript it answers is judged by the server.
"""

import base64
import io
import json
import math
import re
import wave
from array import array
from pathlib import Path

import pytest

from tests.geography.conftest import MICROPHONE, right_answer, speak
from testwallet.extension import FAILED

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

MANIFEST = json.loads((Path(__file__).resolve().parents[2] / "sites/geography/manifest.json").read_text())


@pytest.fixture
async def game(mic_page, daphne_server, byoa_extension):
    """The game page with the test extension installed; the visitor allows."""
    await byoa_extension.install(mic_page)
    byoa_extension.allow()
    await mic_page.goto(daphne_server.url + "/geography/")
    return mic_page


async def use_extension(page):
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=5000)


def decoded(call):
    """Return (rate, channels, sample bytes, seconds, rms) of the WAV a call carried."""
    data = base64.b64decode(call.input["audio"]["base64"])
    with wave.open(io.BytesIO(data)) as clip:
        shape = (clip.getframerate(), clip.getnchannels(), clip.getsampwidth())
        frames = clip.readframes(clip.getnframes())
    samples = array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return (*shape, len(samples) / shape[0], rms)


async def test_a_spoken_clip_reaches_the_wallet_as_16khz_mono_wav_of_the_recorded_length_and_is_scored(
    game, byoa_extension
):
    byoa_extension.reply("audio.transcribe", {"text": await right_answer(game)})
    await use_extension(game)
    assert await game.locator("#mode").text_content() == "Answering by voice with your AI, in this browser"
    await speak(game, "13 s left")
    await game.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)

    call = byoa_extension.calls_of("audio.transcribe")[0]
    rate, channels, width, seconds, rms = decoded(call)
    assert (rate, channels, width) == (16000, 1, 2)
    # Stopped while the countdown showed 13 s left: 2 to 3 s recorded, plus the click (slow on a busy machine).
    assert 2.0 <= seconds <= 5.0
    assert float(await game.locator("#clip-info").get_attribute("data-seconds")) == pytest.approx(
        seconds, abs=1e-4
    )
    assert call.summary["audio"]["clipSeconds"] == pytest.approx(
        seconds, abs=1e-4
    )  # the wallet's own measure
    assert rms > 0.01  # the microphone's speech, not silence
    assert call.params == {"language": "en"}
    assert await game.locator("#score").text_content() == "1"
    assert await game.locator("#transcript").text_content() == call.output["text"]
    assert byoa_extension.requests[0].activated  # asked from the click
    assert byoa_extension.requests[0].manifest == MANIFEST  # manifest.json, as shipped
    assert game.console_problems == []


async def test_a_clip_over_the_cap_is_cut_at_15_seconds_before_it_is_sent(game, byoa_extension):
    # The microphone plays 25 s of speech with no pause: nothing stops the recording but the cap.
    byoa_extension.reply("audio.transcribe", {"text": await right_answer(game)})
    await use_extension(game)
    await game.get_by_role("button", name="Speak your answer").click()
    await game.locator("#verdict[data-verdict]").wait_for(timeout=25000)
    _rate, _channels, _width, seconds, _rms = decoded(byoa_extension.calls_of("audio.transcribe")[0])
    assert seconds == pytest.approx(15.0, abs=0.05) and seconds <= 15.0
    assert "stopped at the 15 s limit" in await game.locator("#clip-info").text_content()
    assert byoa_extension.calls_of("audio.transcribe")[0].refused is None


async def test_the_level_meter_falls_to_nothing_when_a_recording_ends(game, byoa_extension):
    byoa_extension.reply("audio.transcribe", {"text": "Atlantis"})
    await use_extension(game)
    await speak(game, "14 s left")
    await game.locator("#verdict[data-verdict]").wait_for(timeout=10000)
    assert await game.locator("#level").evaluate("meter => meter.value") == 0


async def test_a_declined_request_leaves_the_visitor_in_own_mode_who_types_and_scores(game, byoa_extension):
    byoa_extension.decline()
    await game.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await game.locator("#notice", has_text="Your AI is not available").wait_for(timeout=5000)
    assert await game.locator("#mode").get_attribute("data-mode") == "own"
    assert await game.locator("#mode").text_content() == "Answering by typing"
    assert await game.locator("#recorder").is_hidden()
    await game.get_by_label("Your answer").fill(await right_answer(game))
    await game.get_by_role("button", name="Answer", exact=True).click()
    await game.locator('#verdict[data-verdict="correct"]').wait_for(timeout=5000)
    assert await game.locator("#score").text_content() == "1"


async def test_a_failed_call_falls_back_to_own_mode_without_losing_the_question(game, byoa_extension):
    byoa_extension.reply("audio.transcribe", FAILED)
    question = await game.locator("#question").text_content()
    await use_extension(game)
    await speak(game, "14 s left")
    await game.locator("#notice", has_text="Your AI did not answer this time").wait_for(timeout=5000)
    assert await game.locator("#mode").get_attribute("data-mode") == "own"
    assert await game.locator("#question").text_content() == question
    assert await game.locator("#round").text_content() == "1"


async def test_a_transcript_with_markup_is_shown_as_text_and_scores_nothing(game, byoa_extension):
    evil = "<img src=x onerror=\"document.title='pwned'\"><b>Peru</b>"
    byoa_extension.reply("audio.transcribe", {"text": evil})
    await use_extension(game)
    await speak(game, "14 s left")
    await game.locator("#verdict[data-verdict]").wait_for(timeout=10000)
    assert await game.locator("#transcript").text_content() == evil
    assert await game.locator("#transcript img, #transcript b").count() == 0
    assert await game.title() != "pwned"


async def test_answering_faster_than_the_manifest_allows_is_told_to_wait_and_loses_nothing(
    mic_page, daphne_server, byoa_extension
):
    page = mic_page
    await page.clock.install()
    await byoa_extension.install(page)
    byoa_extension.allow()
    byoa_extension.answer_with("audio.transcribe", lambda call: {"text": ""})  # "no answer": same question
    await page.goto(daphne_server.url + "/geography/")
    await use_extension(page)
    for count in range(1, 41):
        await speak(page, "15 s left")
        try:
            await byoa_extension.wait_until(
                lambda ext, count=count: len(ext.calls) == count and ext.calls[-1].done, timeout=10
            )
        except TimeoutError:
            notice = await page.locator("#notice").text_content()
            raise AssertionError(
                f"clip {count}: {len(byoa_extension.calls)} calls; the page said {notice!r}"
            ) from None
        await page.locator("#speak:enabled").wait_for(timeout=5000)
    await speak(page, "15 s left")
    await page.locator('#notice[data-waiting="true"]', has_text="may use your AI 40 times a minute").wait_for(
        timeout=5000
    )
    assert len(byoa_extension.calls) == 40
    await page.clock.fast_forward(61_000)
    await byoa_extension.wait_until(lambda ext: len(ext.calls) == 41 and ext.calls[-1].done, timeout=10)
    assert [call.refused for call in byoa_extension.calls] == [None] * 41  # the wallet refused none
    assert all(call.ok for call in byoa_extension.calls)


async def test_the_recorder_loads_on_the_first_speak_once_under_its_hashed_names(
    game, byoa_extension, daphne_server
):
    loaded = """() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)"""
    recorder = re.compile(r"^/static/byoa/(recorder|recorder-worklet|wav)\.")
    assert [
        path for path in await game.evaluate(loaded) if recorder.match(path)
    ] == []  # typing needs none of it
    # The server's access log: the AudioWorklet's fetch is not one of the page's own requests.
    mark = len(daphne_server.output())
    byoa_extension.reply("audio.transcribe", {"text": await right_answer(game)})
    await use_extension(game)
    await speak(game, "13 s left")
    await game.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)
    fetched = re.findall(r'"GET (/static/byoa/[^"\s]+)"', daphne_server.output()[mark:])
    # Minified, hashed names under DEBUG off (collectstatic): each file once, the worklet too.
    ours = sorted(path for path in fetched if recorder.match(path))
    assert [re.sub(r"\.[0-9a-f]{12}\.js$", ".js", path) for path in ours] == [
        "/static/byoa/recorder-worklet.js",
        "/static/byoa/recorder.js",
        "/static/byoa/wav.js",
    ]
    assert all(re.search(r"\.[0-9a-f]{12}\.js$", path) for path in ours)
    assert game.console_problems == []
