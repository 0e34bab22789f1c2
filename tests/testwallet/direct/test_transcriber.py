"""
The headless wallet's offline transcriber (PocketSphinx): spoken clips made
with espeak-ng at test time, transcribed with and without a vocabulary, and
one call from a site on a real daphne answered from real speech.
"""

import base64
import sys

import pytest

from byoa.wire import wav
from testwallet.direct import BackendError, PocketSphinxBackend
from testwallet.direct import __main__ as cli
from testwallet.direct.transcriber import is_english, read_vocabulary
from testwallet.speech import spoken_wav

# The vocabulary of the tests: 55 country names, all in the model's dictionary.
COUNTRIES = [
    "Argentina", "Australia", "Austria", "Belgium", "Bolivia", "Brazil", "Canada", "Chile", "China", "Colombia",
    "Cuba", "Denmark", "Ecuador", "Egypt", "Finland", "France", "Germany", "Greece", "Hungary", "Iceland", "India",
    "Indonesia", "Iran", "Iraq", "Ireland", "Israel", "Italy", "Japan", "Kenya", "Mexico", "Morocco", "Netherlands",
    "New Zealand", "Nigeria", "Norway", "Pakistan", "Peru", "Poland", "Portugal", "Romania", "Russia", "Saudi Arabia",
    "Slovakia", "South Africa", "South Korea", "Spain", "Sweden", "Switzerland", "Thailand", "Turkey", "Ukraine",
    "United Kingdom", "United States", "Venezuela", "Vietnam",
]  # fmt: skip
# Names it gets right said by espeak-ng's en-us, en-us+f2 and en voices, with
# this vocabulary and with all 237 CLDR country names it knows (README.md has
# the figures). Many others fail: France -> Peru, Thailand -> Ireland ...
RECOGNIZED = [
    "Argentina",
    "Australia",
    "Egypt",
    "Greece",
    "Norway",
    "Sweden",
    "South Africa",
    "United Kingdom",
]
VOICE = "en-us"  # the model is US English


def clip_input(data):
    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(data).decode()}}


@pytest.fixture(scope="module")
def say(tmp_path_factory):
    """Return the bytes of a 16 kHz clip of espeak-ng saying a text (made once per text and voice)."""
    folder = tmp_path_factory.mktemp("speech")
    made = {}

    def spoken(text, voice=VOICE):
        if (text, voice) not in made:
            made[text, voice] = spoken_wav(
                text, folder / f"{voice}-{len(made)}.wav", voice=voice
            ).read_bytes()
        return made[text, voice]

    return spoken


@pytest.fixture(scope="module")
def countries():
    """A transcriber that may only answer one of the 55 country names."""
    return PocketSphinxBackend(COUNTRIES)


async def transcribe(backend, data, language="en"):
    return (await backend.run("audio.transcribe", clip_input(data), {"language": language}))["text"]


# -- with a vocabulary ---------------------------------------------------------------


@pytest.mark.parametrize("country", RECOGNIZED)
async def test_a_spoken_country_name_is_transcribed_as_the_vocabulary_spells_it(country, countries, say):
    assert await transcribe(countries, say(country)) == country


async def test_a_clip_gets_the_same_transcript_whatever_was_transcribed_before(countries, say):
    first = [await transcribe(countries, say(name)) for name in ("Egypt", "France", "Norway")]
    again = [await transcribe(countries, say(name)) for name in ("Norway", "France", "Egypt")]
    assert first == again[::-1]


async def test_silence_is_transcribed_as_empty_text(countries):
    assert await transcribe(countries, wav.silent_clip(2)) == ""


async def test_a_word_outside_the_vocabulary_never_comes_back_as_itself(countries, say):
    assert await transcribe(countries, say("Lithuania")) in [*COUNTRIES, ""]


def test_the_vocabulary_keeps_its_spelling_and_drops_duplicates():
    backend = PocketSphinxBackend(["New Zealand", "new  zealand", "PERU"])
    assert backend.phrases == {"new zealand": "New Zealand", "peru": "PERU"}


def test_a_vocabulary_with_words_the_model_cannot_say_is_refused_with_those_phrases_named():
    with pytest.raises(ValueError) as refused:
        PocketSphinxBackend(["Peru", "Côte d'Ivoire", "Xqzzt"])
    message = str(refused.value)
    assert "Côte d'Ivoire" in message and "'Xqzzt'" in message and "'Peru'" not in message


@pytest.mark.parametrize("vocabulary", [[], ["  ", "!"]])
def test_a_vocabulary_with_no_phrase_is_refused(vocabulary):
    with pytest.raises(ValueError, match=r"dictionary|empty"):
        PocketSphinxBackend(vocabulary)


def test_a_vocabulary_given_as_one_string_is_refused():
    with pytest.raises(TypeError, match="read_vocabulary"):
        PocketSphinxBackend("countries.txt")


def test_a_vocabulary_file_has_one_phrase_per_line_and_comments(tmp_path):
    path = tmp_path / "countries.txt"
    path.write_text("# answers\nPeru\n\n  New Zealand  \n", encoding="utf-8")
    assert read_vocabulary(path) == ["Peru", "New Zealand"]


# -- free-form -----------------------------------------------------------------------


async def test_without_a_vocabulary_silence_is_empty_text_too():
    assert await transcribe(PocketSphinxBackend(), wav.silent_clip(2)) == ""


# -- what it refuses -----------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "en-US", "en-GB", None])
def test_english_or_no_language_is_heard(language):
    assert is_english(language)


@pytest.mark.parametrize("language", ["ru", "sk", "eng", "EN_us", "", 7])
def test_another_language_is_not(language):
    assert not is_english(language)


async def test_a_clip_in_another_language_is_refused_not_guessed(countries, say):
    with pytest.raises(BackendError, match="English only"):
        await transcribe(countries, say("Перу", voice="ru"), language="ru")


@pytest.mark.parametrize(
    "input",
    [{}, {"audio": {"base64": "not base64!"}}, clip_input(b"RIFF....WAVE"), {"audio": {"base64": 7}}],
)
async def test_what_is_not_a_clip_is_refused(countries, input):
    with pytest.raises(BackendError):
        await countries.run("audio.transcribe", input, {"language": "en"})


async def test_another_skill_is_refused(countries):
    assert countries.skills() == {"audio.transcribe"}
    with pytest.raises(BackendError):
        await countries.run("text.generate", {"messages": []}, {})


def test_without_the_package_the_error_names_the_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pocketsphinx", None)  # what an uninstalled package looks like to import
    with pytest.raises(ImportError, match=r"visitor-ai\[speech\]"):
        PocketSphinxBackend()


# -- the command line ----------------------------------------------------------------


def test_the_command_line_builds_the_transcriber_with_a_vocabulary_file(tmp_path):
    path = tmp_path / "countries.txt"
    path.write_text("Peru\nSouth Africa\n", encoding="utf-8")
    backend = cli.build_backend(
        cli.parse_args(["LINK", "--transcriber", "pocketsphinx", "--vocabulary", str(path)])
    )
    assert isinstance(backend, PocketSphinxBackend)
    assert backend.phrases == {"peru": "Peru", "south africa": "South Africa"}


def test_the_command_line_records_the_transcribers_hearing_when_a_cassette_is_named(tmp_path, monkeypatch):
    from testwallet.direct import RecordedBackend

    monkeypatch.setenv("TESTWALLET_CASSETTE", str(tmp_path / "heard.json"))
    monkeypatch.setenv("TESTWALLET_RECORD", "all")
    backend = cli.build_backend(cli.parse_args(["LINK", "--transcriber", "pocketsphinx"]))
    assert isinstance(backend, RecordedBackend) and isinstance(backend.backend, PocketSphinxBackend)
    assert backend.cassette.path == tmp_path / "heard.json" and backend.skills() == {"audio.transcribe"}


@pytest.mark.parametrize(
    "argv",
    [
        ["LINK", "--vocabulary", "countries.txt"],
        ["LINK", "--transcriber", "pocketsphinx", "--openai-url", "http://127.0.0.1:11434/v1"],
        ["LINK", "--transcriber", "whisper", "--script", "audio.transcribe={}"],
    ],
)
def test_the_command_line_refuses_a_vocabulary_without_a_transcriber_or_two_backends(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.build_backend(cli.parse_args(argv))
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "vocabulary, error",
    [(None, "No such file"), ("Peru\nXqzzt\n", "'Xqzzt'"), ("# nothing\n", "empty")],
)
def test_the_command_line_says_what_is_wrong_with_a_vocabulary_file(vocabulary, error, tmp_path, capsys):
    path = tmp_path / "countries.txt"
    if vocabulary is not None:
        path.write_text(vocabulary, encoding="utf-8")
    assert cli.main(["LINK", "--transcriber", "pocketsphinx", "--vocabulary", str(path)]) == 2
    assert error in capsys.readouterr().err


# -- end to end ------------------------------------------------------------------------


@pytest.mark.live
async def test_a_site_calls_the_wallet_with_spoken_audio_and_gets_the_country(
    visitor, direct_wallet, countries, say
):
    wallet = await direct_wallet((await visitor.new_link())["link"], countries)
    assert wallet.opened, wallet.activity
    answer = await visitor.call(
        "audio.transcribe", clip_input(say("Argentina")), {"language": "en"}, timeout=20
    )
    assert answer == {"output": {"text": "Argentina"}}
    refused = await visitor.call(
        "audio.transcribe", clip_input(say("Slovensko", voice="sk")), {"language": "sk"}
    )
    assert refused == {"output": None}  # the wallet said ok: false; the page goes its own way
