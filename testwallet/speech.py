"""
Spoken clips for tests: Debian's ``espeak-ng`` says a text, and the result is the clip
``audio.transcribe`` takes (16 kHz, mono, 16-bit PCM WAV): ``spoken_wav("Peru", path)`` returns
the path. Chromium's fake microphone (``--use-file-for-fake-audio-capture``) can play the same
file to a page.
"""

import functools
import math
import shutil
import subprocess
import sys
import tempfile
from array import array
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from byoa.wire import wav

__all__ = ["SpeechSynthesizerMissing", "resample", "spoken_wav"]

RATE = wav.RATE  # what audio.transcribe takes (specs/byoa-sites.md)
KERNEL_HALF_WIDTH = 16  # input samples each side of an output sample


class SpeechSynthesizerMissing(RuntimeError):
    """Raised when espeak-ng is not installed."""


def spoken_wav(
    text: str,
    path: str | PathLike[str],
    *,
    voice: str = "en",
    words_per_minute: int = 130,
    pad_seconds: float = 0.3,
) -> Path:
    """Say ``text`` with espeak-ng into ``path`` as a 16 kHz mono 16-bit PCM WAV; return the path.

    ``voice`` is an espeak-ng voice (``en``, ``ru``, ``sk`` ...). The speech is
    framed by ``pad_seconds`` of silence, as a visitor's clip would be.
    """
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        raise SpeechSynthesizerMissing(
            "espeak-ng is not installed: `make test` installs it (scripts/ensure-debian-packages), "
            "or run: apt-get install espeak-ng"
        )
    out = Path(path)
    with tempfile.TemporaryDirectory() as scratch:
        said = Path(scratch) / "said.wav"
        subprocess.run(
            [espeak, "-v", voice, "-s", str(words_per_minute), "-w", str(said), "--", text],
            check=True,
            capture_output=True,
            timeout=60,
        )
        source = wav.read(said.read_bytes())  # the reader the server and the wallet use
    if (source.channels, source.bits) != (1, 16):
        raise ValueError("espeak-ng did not write mono 16-bit PCM")
    samples = _native(array("h", source.samples[: len(source.samples) // 2 * 2]))
    silence = array("h", bytes(2 * int(pad_seconds * RATE)))
    speech = silence + resample(samples, source.rate, RATE) + silence
    out.write_bytes(wav.write(_native(speech).tobytes()))
    return out


def _native(samples: array[int]) -> array[int]:
    """Return 16-bit samples swapped between WAV's little-endian order and the machine's (a no-op on most)."""
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def resample(samples: Sequence[int], from_rate: int, to_rate: int) -> array[int]:
    """Return 16-bit ``samples`` at ``from_rate`` resampled to ``to_rate``, low-pass filtered first.

    A windowed-sinc filter in plain Python: the stdlib's ``audioop.ratecv`` was
    removed in Python 3.13 (and does no anti-aliasing), and the project has no
    numpy to lean on. espeak-ng writes 22050 Hz; a clip of a few seconds takes
    a fraction of a second.
    """
    if from_rate == to_rate:
        return array("h", samples)
    step = math.gcd(from_rate, to_rate)
    up, down = to_rate // step, from_rate // step
    kernels = _kernels(up, down)
    width = len(kernels[0])  # taps from -width/2 + 1 to width/2 around the output's place
    padded = [0] * width + list(samples) + [0] * width
    out = array("h")
    for n in range(len(samples) * up // down):
        phase, first = (n * down) % up, (n * down) // up
        start = width + first - width // 2 + 1
        value = math.sumprod(kernels[phase], padded[start : start + width])  # the dot product in C
        out.append(max(-32768, min(32767, round(value))))
    return out


@functools.cache
def _kernels(up: int, down: int) -> list[list[float]]:
    """Return one filter kernel per output phase for resampling by up/down."""
    cutoff = min(1.0, up / down)  # the new Nyquist frequency, relative to the old one
    half = math.ceil(KERNEL_HALF_WIDTH / cutoff)
    kernels: list[list[float]] = []
    for phase in range(up):
        offset = phase / up  # where the output sample falls between two input samples
        taps: list[float] = []
        for k in range(-half + 1, half + 1):
            x = k - offset
            window = 0.5 + 0.5 * math.cos(math.pi * x / half) if abs(x) < half else 0.0  # Hann
            sinc = 1.0 if x == 0 else math.sin(math.pi * cutoff * x) / (math.pi * cutoff * x)
            taps.append(cutoff * sinc * window)
        kernels.append(taps)
    return kernels
