"""byoa.wire.wav: the one reader of WAV files, for the server's clip view, the headless wallet and speech helpers."""

import struct

import pytest

from byoa.wire import wav


def test_a_clip_is_measured_from_its_samples():
    assert wav.clip_seconds(wav.silent_clip(2.5)) == 2.5


def test_a_header_that_claims_another_length_is_not_believed():
    data = bytearray(wav.silent_clip(3))
    data[40:44] = (10 * 32000).to_bytes(4, "little")  # the data chunk claims 10 s; 3 s are there
    data[4:8] = (36).to_bytes(4, "little")  # and the RIFF size claims almost nothing
    assert wav.clip_seconds(bytes(data)) == 3


def test_the_samples_of_a_clip_are_what_its_data_chunk_really_holds():
    data = bytearray(wav.silent_clip(1))
    data[40:44] = (10 * 32000).to_bytes(4, "little")
    assert wav.pcm(bytes(data) + b"\x01\x02") == bytes(32000) + b"\x01\x02"


@pytest.mark.parametrize(
    "data", [b"", b"RIFF....WAVE", wav.silent_clip(1).replace(b"\x80>\x00\x00", b"D\xac\x00\x00", 1)]
)
def test_what_is_not_a_16khz_mono_pcm_wav_is_not_a_clip(data):
    with pytest.raises(wav.NotAClip):
        wav.clip_seconds(data)


def test_a_wav_at_another_rate_is_read_with_its_format_but_is_not_a_clip():
    data = wav.write(b"\x01\x00" * 22050, rate=22050)  # what espeak-ng writes
    found = wav.read(data)
    assert (found.rate, found.channels, found.bits, found.seconds, found.is_clip) == (
        22050,
        1,
        16,
        1.0,
        False,
    )
    with pytest.raises(
        wav.NotAClip, match=r"Expected 16 kHz mono 16-bit PCM; got 22050 Hz, 1 channel\(s\), 16-bit\."
    ):
        wav.pcm(data)


def test_chunks_before_the_samples_are_skipped_with_their_padding():
    samples = b"\x02\x00" * 16000
    odd = b"LIST" + struct.pack("<I", 3) + b"abc" + b"\0"  # an odd-sized chunk is padded to an even size
    data = wav.silent_clip(0)
    data = data[:36] + odd + b"data" + struct.pack("<I", len(samples)) + samples
    assert wav.pcm(data) == samples


def test_samples_that_are_not_pcm_are_refused_whatever_their_rate():
    data = bytearray(wav.silent_clip(1))
    data[20:22] = (3).to_bytes(2, "little")  # IEEE float
    with pytest.raises(wav.NotAClip, match="got format 3"):
        wav.read(bytes(data))
