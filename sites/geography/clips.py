"""
The clips a visitor's page sends for the direct link: checked here before any
wallet hears of them (a 16 kHz mono 16-bit PCM WAV of at most the manifest's
maxClipSeconds, measured from the samples, never from a length the page states).

The WAV itself is read by ``byoa.wire.wav``, the reader the headless wallet uses
too, so a clip this view lets through is one a wallet measures the same way.
What reaches the wallet is a WAV written again from the samples checked here:
any other chunk or trailing bytes the page sent stay on the server.
"""

from byoa.wire import wav
from sites.geography.exceptions import ClipRefused

#: Room for a WAV header with extra chunks, on top of the samples.
HEADER_ALLOWANCE = 1024


def max_bytes(max_seconds: float) -> int:
    """Return the largest body a clip of max_seconds can need."""
    return int(max_seconds * wav.RATE) * wav.CHANNELS * (wav.BITS // 8) + HEADER_ALLOWANCE


def checked(data: bytes, max_seconds: float) -> bytes:
    """Return the clip written again from its samples alone; raise ClipRefused as ``measure`` does."""
    measure(data, max_seconds)
    samples = wav.pcm(data)
    return wav.write(samples[: len(samples) - len(samples) % 2])  # whole 16-bit samples only


def measure(data: bytes, max_seconds: float) -> float:
    """Return the clip's length in seconds; raise ClipRefused for anything but a fitting WAV."""
    if len(data) > max_bytes(max_seconds):
        raise ClipRefused(
            "clip-too-large", f"A clip is at most {max_seconds} seconds ({max_bytes(max_seconds)} bytes)."
        )
    try:
        seconds = wav.clip_seconds(data)
    except wav.NotAClip as exc:
        raise ClipRefused("clip-invalid", f"Send a WAV file (16 kHz, mono, 16-bit PCM). {exc}") from None
    if seconds > max_seconds:
        raise ClipRefused(
            "clip-too-long", f"A clip is at most {max_seconds} seconds; this one is {seconds:.1f}."
        )
    if not seconds:
        raise ClipRefused("clip-empty", "The clip holds no sound; record again.")
    return seconds
