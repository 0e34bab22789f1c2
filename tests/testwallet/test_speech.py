"""testwallet.speech: espeak-ng's speech as a 16 kHz mono 16-bit clip, and the resampler under it."""

import math
import wave
from array import array

import pytest

from byoa.wire import wav
from testwallet.speech import SpeechSynthesizerMissing, resample, spoken_wav


def tone(frequency, rate, seconds=1.0, amplitude=10000):
    wave_at = (amplitude * math.sin(2 * math.pi * frequency * i / rate) for i in range(int(rate * seconds)))
    return array("h", map(round, wave_at))


def rms(samples):
    return math.sqrt(sum(s * s for s in samples) / len(samples))


def test_a_spoken_clip_is_16khz_mono_16bit_speech_framed_by_silence(tmp_path):
    path = spoken_wav("Argentina", tmp_path / "argentina.wav")
    assert path == tmp_path / "argentina.wav"
    data = path.read_bytes()
    assert 0.8 < wav.clip_seconds(data) < 3  # the wallet's own measure accepts it
    with wave.open(str(path)) as clip:
        assert (clip.getframerate(), clip.getnchannels(), clip.getsampwidth()) == (16000, 1, 2)
        samples = array("h", clip.readframes(clip.getnframes()))
    assert not any(samples[:4800]) and not any(samples[-4800:])  # 0.3 s of silence each side
    assert rms(samples[4800:-4800]) > 500  # and speech between


def test_without_espeak_ng_the_error_says_make_test_installs_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SpeechSynthesizerMissing, match="make test"):
        spoken_wav("Peru", tmp_path / "peru.wav")


def test_resampling_keeps_a_tone_below_the_new_nyquist_frequency():
    out = resample(tone(1000, 22050), 22050, 16000)
    assert len(out) == 16000
    expected = tone(1000, 16000)
    assert max(abs(a - b) for a, b in zip(out[500:-500], expected[500:-500], strict=True)) <= 3


def test_resampling_removes_what_would_alias():
    # 10 kHz is above 16 kHz's Nyquist frequency: without the low-pass it would come back as 6 kHz.
    assert rms(resample(tone(10000, 22050), 22050, 16000)[500:-500]) < 100


def test_resampling_from_48khz_and_at_the_same_rate():
    out = resample(tone(440, 48000), 48000, 16000)
    assert len(out) == 16000
    assert max(abs(a - b) for a, b in zip(out[500:-500], tone(440, 16000)[500:-500], strict=True)) <= 3
    same = tone(440, 16000)
    assert resample(same, 16000, 16000) == same
