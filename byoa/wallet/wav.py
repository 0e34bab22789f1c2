"""
How long a clip is, measured by the wallet itself from the WAV bytes (the
skill takes 16 kHz, mono, 16-bit PCM); it never trusts a length the page states.
A transcriber reads the same samples (``pcm``).
"""

import struct

from byoa.exceptions import NotAClip

RATE, CHANNELS, BITS = 16000, 1, 16


def clip_seconds(data):
    """Return the duration of a WAV clip in seconds, from the samples actually present."""
    return len(pcm(data)) / (RATE * CHANNELS * BITS // 8)


def pcm(data):
    """Return the PCM bytes of a 16 kHz mono 16-bit WAV clip: what its data chunk really holds."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise NotAClip("not a RIFF/WAVE file")
    at, fmt, samples = 12, None, None
    while at + 8 <= len(data):
        chunk_id, size = data[at : at + 4], struct.unpack("<I", data[at + 4 : at + 8])[0]
        body = data[at + 8 : at + 8 + size]
        if chunk_id == b"fmt " and len(body) >= 16:
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk_id == b"data":
            samples = body  # what is there, not what the header claims
            break
        at += 8 + size + (size & 1)
    if fmt is None or samples is None:
        raise NotAClip("no fmt or data chunk")
    audio_format, channels, rate, _byte_rate, _align, bits = fmt
    if (audio_format, channels, rate, bits) != (1, CHANNELS, RATE, BITS):
        raise NotAClip("not 16 kHz mono 16-bit PCM")
    return samples


def silent_clip(seconds):
    """Return a WAV of silence of the given length (for tests and benchmarks)."""
    frames = int(seconds * RATE)
    data = b"\0\0" * frames
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE"
    fmt = b"fmt " + struct.pack("<IHHIIHH", 16, 1, CHANNELS, RATE, RATE * 2, 2, BITS)
    return header + fmt + b"data" + struct.pack("<I", len(data)) + data
