"""
The clips a visitor's page sends for the direct link: checked here before any
wallet hears of them (a 16 kHz mono 16-bit PCM WAV of at most the manifest's
maxClipSeconds, measured from the samples, never from a length the page states).
"""

import io
import wave

from sites.geography.exceptions import ClipRefused

RATE, CHANNELS, SAMPLE_BYTES = 16000, 1, 2
#: Room for a WAV header with extra chunks, on top of the samples.
HEADER_ALLOWANCE = 1024


def max_bytes(max_seconds):
    """Return the largest body a clip of max_seconds can need."""
    return int(max_seconds * RATE) * CHANNELS * SAMPLE_BYTES + HEADER_ALLOWANCE


def measure(data, max_seconds):
    """Return the clip's length in seconds; raise ClipRefused for anything but a fitting WAV."""
    if len(data) > max_bytes(max_seconds):
        raise ClipRefused("clip-too-large", f"A clip is at most {max_seconds} seconds ({max_bytes(max_seconds)} bytes).")
    try:
        with wave.open(io.BytesIO(data)) as clip:
            shape = (clip.getframerate(), clip.getnchannels(), clip.getsampwidth())
            frames = clip.readframes(clip.getnframes())  # what is there, not what the header says
    except (wave.Error, EOFError) as exc:
        raise ClipRefused("clip-invalid", f"Send a WAV file (16 kHz, mono, 16-bit PCM): {exc}.") from None
    if shape != (RATE, CHANNELS, SAMPLE_BYTES):
        raise ClipRefused(
            "clip-invalid",
            f"Send 16 kHz mono 16-bit PCM; got {shape[0]} Hz, {shape[1]} channel(s), {8 * shape[2]}-bit.",
        )
    seconds = len(frames) / (RATE * CHANNELS * SAMPLE_BYTES)
    if seconds > max_seconds:
        raise ClipRefused("clip-too-long", f"A clip is at most {max_seconds} seconds; this one is {seconds:.1f}.")
    if not frames:
        raise ClipRefused("clip-empty", "The clip holds no sound; record again.")
    return seconds
