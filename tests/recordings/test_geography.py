"""
Voice geography against a real model's hearing: the game played by hand (``?testwallet=1``) in
Chromium, its microphone saying "Peru" (peru.wav) between silences, each clip answered from the recording
beside this file (``geography.json``), with no transcription server at all.

A clip is matched by its hash (the cassette keeps no audio). The page's recorder keeps the sound
and half a second either side of it, so the same spoken word makes the same clip, to the byte,
however the recording started around it: the fake microphone's silence before the word is cut
away. And on any machine: peru.wav is at the rate Chromium's fake microphone captures at, so the
browser hands the page its samples as they are. Converted by the browser (espeak-ng's 22.05 kHz),
the samples came from its SIMD resampler, whose last bits depend on the processor.

The same test made the recording, once, with the test wallet's Whisper server
(testwallet.transcribe, faster-whisper's base model, no vocabulary)::

    TESTWALLET_RECORD=all .venv/bin/python -m pytest tests/recordings/test_geography.py -p no:cacheprovider

What the test checks is read from the recording, so recording again with another model still
passes: the words the page shows are what that model heard.
"""

import json
import os
import wave
from pathlib import Path

import pytest
import pytest_asyncio

from tests.geography.conftest import MICROPHONE, with_microphone_playing
from tests.testwallet.panel import press
from testwallet.server import DaphneServer

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

HERE = Path(__file__).parent
CASSETTE = HERE / "geography.json"
#: all or new to record with the Whisper server; unset, the recording replays with no server.
RECORD = os.environ.get("TESTWALLET_RECORD", "none")
ROUNDS = 3
#: Before the word: longer than a recording takes to start, so the recorder hears its first sound.
#: After it: longer than the recorder's 1.5 s of silence, so it stops by itself before the loop.
SILENCE_BEFORE, SILENCE_AFTER = 1.5, 3.0


@pytest.fixture(scope="module")
def word_wav(tmp_path_factory):
    """Return a WAV of "Peru" between silences, as the fake microphone plays it.

    The word is tests/recordings/peru.wav (espeak-ng's 22.05 kHz, resampled once to 44.1 kHz with
    Python's audioop.ratecv, and kept in the repository so that another version of the synthesizer
    cannot change the clip the recording was made of).
    """
    with wave.open(str(HERE / "peru.wav")) as source:
        params, frames = source.getparams(), source.readframes(source.getnframes())
    silence = bytes(params.sampwidth * params.nchannels)
    path = tmp_path_factory.mktemp("word") / "peru-between-silences.wav"
    with wave.open(str(path), "wb") as out:
        out.setparams(params)
        out.writeframes(
            silence * int(params.framerate * SILENCE_BEFORE)
            + frames
            + silence * int(params.framerate * SILENCE_AFTER)
        )
    return path


@pytest_asyncio.fixture(loop_scope="session")
async def word_page(browser_type, browser_type_launch_args, word_wav):
    browser = await browser_type.launch(**with_microphone_playing(browser_type_launch_args, word_wav))
    page = await browser.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    yield page
    await browser.close()


@pytest.fixture(scope="module")
def geography_server(tmp_path_factory):
    env = {
        "DJANGO_DEBUG": "1",
        "TESTWALLET_CASSETTE": str(CASSETTE),
        "TESTWALLET_RECORD": RECORD,
        "TESTWALLET_MODEL_URL": "",
        "TESTWALLET_TRANSCRIBE_URL": "",
    }
    if RECORD == "none":
        with DaphneServer(
            "sites.config.asgi:application", env=env, workdir=tmp_path_factory.mktemp("geo")
        ) as server:
            yield server
        return
    from tests.whisper_models import transcription_server, whisper_model
    from testwallet.direct import WhisperBackend

    with transcription_server(WhisperBackend(whisper_model("base"))) as url:
        env["TESTWALLET_TRANSCRIBE_URL"] = url
        with DaphneServer(
            "sites.config.asgi:application", env=env, workdir=tmp_path_factory.mktemp("geo")
        ) as server:
            yield server


def transcriptions():
    """Return the recording's entries of clips heard, in order."""
    entries = json.loads(CASSETTE.read_text(encoding="utf-8"))["entries"]
    return [entry for entry in entries if entry["way"] == "transcribe"]


async def test_each_spoken_answer_is_judged_on_the_recorded_models_hearing(word_page, geography_server):
    page = word_page
    await page.goto(geography_server.url + "/geography/?testwallet=1")
    # The premise of a clip that is the same on every machine (above): nothing for the browser to convert.
    # The recorder's constraints (frontend/byoa/recorder.js): with the browser's processing on, it runs at 48 kHz.
    capture_rate = await page.evaluate(
        """async () => {
            const audio = { channelCount: 1, autoGainControl: false, echoCancellation: false, noiseSuppression: false };
            const stream = await navigator.mediaDevices.getUserMedia({ audio });
            stream.getTracks().forEach((track) => track.stop());
            return stream.getAudioTracks()[0].getSettings().sampleRate;
        }"""
    )
    with wave.open(str(HERE / "peru.wav")) as word:
        assert word.getframerate() == capture_rate, "peru.wav must be at the fake microphone's rate"
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await press(page, "Allow")
    await page.locator('#mode[data-mode="extension"]').wait_for(timeout=10000)
    shown = []
    for _ in range(ROUNDS):
        round_before = await page.locator("#round").text_content()
        await page.get_by_role("button", name="Speak your answer").click()
        # The recorder stops by itself in the silence after the word; the judged answer moves the round on.
        await page.wait_for_function(
            "before => document.querySelector('#round').textContent !== before",
            arg=round_before,
            timeout=60000,
        )
        shown.append((await page.locator("#transcript").text_content()).strip())
    recorded = transcriptions()
    # One clip every round: the word the microphone said, whenever the recording started around it.
    assert len(recorded) == ROUNDS and len({entry["asked"]["clip"] for entry in recorded}) == 1
    assert shown == [entry["answer"]["text"].strip() for entry in recorded] and all(shown)
    assert page.problems == []
