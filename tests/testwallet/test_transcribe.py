"""
The test wallet's transcription server (python -m testwallet.transcribe):
OpenAI's published SDK sends it a spoken clip and gets Whisper's text back.
"""

import pytest

from byoa.wire import wav
from tests.whisper_models import transcription_server, whisper_model
from testwallet import transcribe
from testwallet.speech import spoken_wav

openai = pytest.importorskip("openai", reason="the test extra installs the openai SDK")


@pytest.fixture(scope="module")
def server_url():
    from testwallet.direct import WhisperBackend

    with transcription_server(
        WhisperBackend(whisper_model("base"), vocabulary={"sk": ["Nemecko", "Rakúsko"]})
    ) as url:
        yield url


@pytest.fixture
def client(server_url):
    return openai.AsyncOpenAI(base_url=server_url, api_key="unused", max_retries=0)


async def test_the_openai_sdk_gets_the_text_of_a_spoken_clip(client, tmp_path):
    clip = spoken_wav("Argentina", tmp_path / "clip.wav", voice="en-us").read_bytes()
    heard = await client.audio.transcriptions.create(
        model="whisper-1", file=("clip.wav", clip, "audio/wav"), language="en"
    )
    assert "argentina" in heard.text.casefold()


async def test_the_language_of_the_request_is_the_language_heard(client, tmp_path):
    clip = spoken_wav("Nemecko", tmp_path / "clip.wav", voice="sk").read_bytes()
    heard = await client.audio.transcriptions.create(
        model="whisper-1", file=("clip.wav", clip, "audio/wav"), language="sk", response_format="text"
    )
    assert "nemecko" in heard.casefold()


async def test_silence_is_empty_text(client):
    heard = await client.audio.transcriptions.create(
        model="whisper-1", file=("clip.wav", wav.silent_clip(2), "audio/wav")
    )
    assert heard.text == ""


async def test_a_file_that_is_not_a_16khz_wav_is_refused_with_a_reason(client):
    with pytest.raises(openai.BadRequestError, match="16 kHz mono 16-bit"):
        await client.audio.transcriptions.create(
            model="whisper-1", file=("clip.mp3", b"ID3not a wav", "audio/mpeg")
        )


async def test_a_response_format_it_cannot_give_is_refused(client):
    with pytest.raises(openai.BadRequestError, match="response_format"):
        await client.audio.transcriptions.create(
            model="whisper-1", file=("clip.wav", wav.silent_clip(1), "audio/wav"), response_format="srt"
        )


def test_the_command_says_what_is_wrong_with_a_model_directory(tmp_path, capsys):
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed")
    assert transcribe.main(["--model", str(tmp_path)]) == 2
    assert "lacks model.bin" in capsys.readouterr().err


class NoBackend:
    """A backend that must not be reached."""

    async def run(self, skill, input, params):
        raise AssertionError("the backend was called")


async def test_a_chunked_body_past_the_limit_is_refused_with_413_as_it_arrives():
    import httpx

    sent = 0

    async def endless_form():
        nonlocal sent
        yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\n'
        while sent < 1024 * 1024 * 1024:  # a gigabyte, unless refused first
            sent += 64 * 1024
            yield b"x" * (64 * 1024)

    transport = httpx.ASGITransport(app=transcribe.application(NoBackend()))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        response = await http.post(
            "/v1/audio/transcriptions",
            content=endless_form(),
            headers={"content-type": "multipart/form-data; boundary=b"},
        )
    assert response.status_code == 413
    assert sent <= transcribe.MAX_BODY_BYTES + 64 * 1024
