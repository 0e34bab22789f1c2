"""
WAV files, read and written in one place: the clips ``audio.transcribe`` takes (16 kHz, mono,
16-bit PCM) and the speech the test tooling makes. The server's clip view, the headless wallet
and the speech helpers all read clips here, so the server refuses exactly the clips the wallet
would refuse and both measure the same length, from the samples present. Needs no Django. Why
not the standard library's ``wave``: docs/explanation/modules.md.
"""

import struct
from dataclasses import dataclass

from byoa.wire._errors import NotAClip

__all__ = [
    "BITS",
    "CHANNELS",
    "RATE",
    "NotAClip",
    "Wav",
    "clip_seconds",
    "pcm",
    "read",
    "silent_clip",
    "write",
]

#: What ``audio.transcribe`` takes (specs/byoa-sites.md).
RATE, CHANNELS, BITS = 16000, 1, 16
PCM_FORMAT = 1  # WAVE_FORMAT_PCM


@dataclass(frozen=True)
class Wav:
    """A PCM WAV file: its format and the bytes its data chunk really holds (little-endian)."""

    rate: int
    channels: int
    bits: int
    samples: bytes

    @property
    def seconds(self) -> float:
        """Return the length in seconds, from the samples present."""
        per_second = self.rate * self.channels * self.bits // 8
        return len(self.samples) / per_second if per_second else 0.0

    @property
    def is_clip(self) -> bool:
        """Return True when it is what ``audio.transcribe`` takes: 16 kHz, mono, 16-bit."""
        return (self.rate, self.channels, self.bits) == (RATE, CHANNELS, BITS)


def read(data: bytes) -> Wav:
    """Return the format and samples of a PCM WAV file at any rate; raise NotAClip for anything else."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise NotAClip("Expected a WAV file; got bytes that are not RIFF/WAVE.")
    at, fmt, samples = 12, None, None
    # The RIFF size is not believed: every chunk up to the end of the bytes is read.
    while at + 8 <= len(data):
        chunk_id, size = data[at : at + 4], struct.unpack("<I", data[at + 4 : at + 8])[0]
        body = data[at + 8 : at + 8 + size]
        if chunk_id == b"fmt " and len(body) >= 16:
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk_id == b"data":
            samples = body  # what is there, not what the header claims
            break
        at += 8 + size + (size & 1)  # chunks are padded to even sizes
    if fmt is None or samples is None:
        raise NotAClip(
            "Expected a WAV file with a fmt chunk before its data chunk; got neither in that order."
        )
    audio_format, channels, rate, _byte_rate, _align, bits = fmt
    if audio_format != PCM_FORMAT:
        raise NotAClip(f"Expected PCM samples (format 1); got format {audio_format}.")
    return Wav(rate, channels, bits, samples)


def pcm(data: bytes) -> bytes:
    """Return the samples of a clip ``audio.transcribe`` takes; raise NotAClip for any other bytes."""
    found = read(data)
    if not found.is_clip:
        raise NotAClip(
            f"Expected 16 kHz mono 16-bit PCM; got {found.rate} Hz, "
            f"{found.channels} channel(s), {found.bits}-bit."
        )
    return found.samples


def clip_seconds(data: bytes) -> float:
    """Return the length of a clip in seconds, from the samples actually present."""
    return len(pcm(data)) / (RATE * CHANNELS * BITS // 8)


def write(samples: bytes, rate: int = RATE) -> bytes:
    """Return a mono 16-bit PCM WAV file of little-endian ``samples`` at ``rate``."""
    header = b"RIFF" + struct.pack("<I", 36 + len(samples)) + b"WAVE"
    fmt = b"fmt " + struct.pack("<IHHIIHH", 16, PCM_FORMAT, CHANNELS, rate, rate * 2, 2, BITS)
    return header + fmt + b"data" + struct.pack("<I", len(samples)) + samples


def silent_clip(seconds: float) -> bytes:
    """Return a clip of silence of the given length (for tests and benchmarks)."""
    return write(b"\0\0" * int(seconds * RATE))
