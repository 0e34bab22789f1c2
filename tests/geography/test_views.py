"""The game's HTTP side with Django's test client: the session keeps the game, the page only sends text."""

import base64
import json
import struct

import pytest
from django.test import Client

from sites.geography import game, places

pytestmark = pytest.mark.django_db


def wav(seconds, rate=16000, channels=1, bits=16):
    data = b"\x01\x00" * int(seconds * rate * channels) if bits == 16 else b"\x01" * int(seconds * rate)
    byte_rate = rate * channels * bits // 8
    fmt = struct.pack("<IHHIIHH", 16, 1, channels, rate, byte_rate, channels * bits // 8, bits)
    return (
        b"RIFF"
        + struct.pack("<I", 36 + len(data))
        + b"WAVE"
        + b"fmt "
        + fmt
        + b"data"
        + struct.pack("<I", len(data))
        + data
    )


def expected_country(client):
    return places.get(_state(client)["questions"][_state(client)["round"] - 1]).country


def _state(client):
    return client.session[game.SESSION_KEY]


def post_json(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


@pytest.fixture
def player():
    client = Client()
    assert client.get("/geography/").status_code == 200
    # A page view stores no session; the visitor's first act stores the game the page showed.
    assert post_json(client, "/geography/language/", {"language": "en"}).status_code == 200
    return client


def test_the_page_shows_what_the_manifest_asks_before_any_click(player):
    page = player.get("/geography/").content.decode()
    for words in (
        "Family geography game",
        "English, Russian and Slovak",
        "at most 15 seconds",
        "at most 40 uses a minute",
        "Recordings of your voice",
        "0.05 USD",
    ):
        assert words in page


def test_the_page_embeds_exactly_the_manifest_file(player, settings):
    from pathlib import Path

    import sites.geography

    page = player.get("/geography/").content.decode()
    embedded = page.split('<script id="byoa-manifest" type="application/json">', 1)[1].split("</script>", 1)[
        0
    ]
    shipped = json.loads((Path(sites.geography.__file__).parent / "manifest.json").read_text())
    assert json.loads(embedded) == shipped


def test_the_page_never_carries_the_expected_answer(player):
    page = player.get("/geography/").content.decode()
    country = expected_country(player)
    from sites.geography.names import display_name

    assert display_name(country, "en") not in page.split('id="question">', 1)[1].split("</section>", 1)[0]


def test_a_typed_right_answer_scores_in_the_session(player):
    from sites.geography.names import display_name

    answer = display_name(expected_country(player), "en")
    result = post_json(player, "/geography/answer/", {"text": answer}).json()
    assert result["verdict"] == "correct" and result["score"] == 1 and result["round"] == 2
    assert _state(player)["score"] == 1


def test_a_wrong_answer_is_spoken_to_as_typed_unless_the_page_says_the_visitors_ai_heard_it(player):
    typed = post_json(player, "/geography/answer/", {"text": "Atlantis"}).json()
    assert typed["message"].startswith("Not quite: that is not one country's name I know;")
    heard = post_json(player, "/geography/answer/", {"text": "Atlantis", "heard": True}).json()
    assert heard["message"].startswith("Not quite: I did not hear one country's name;")
    # Only JSON's true says heard: a form field or a string does not.
    forged = post_json(player, "/geography/answer/", {"text": "Atlantis", "heard": "yes"}).json()
    assert forged["message"].startswith("Not quite: that is not one country's name I know;")


def test_a_forged_score_or_answer_in_the_post_changes_nothing(player):
    before = _state(player)
    forged = {
        "text": "Atlantis",
        "score": 10,
        "verdict": "correct",
        "expected": "Atlantis",
        "round": 9,
        "country": "XX",
    }
    result = post_json(player, "/geography/answer/", forged).json()
    assert result["verdict"] == "wrong" and result["score"] == 0
    assert _state(player)["score"] == 0
    assert _state(player)["questions"] == before["questions"]


def test_markup_in_an_answer_changes_no_score_and_is_echoed_only_as_json_text(player):
    text = "<script>score=10</script>"
    response = post_json(player, "/geography/answer/", {"text": text})
    assert response["content-type"] == "application/json"
    assert response.json()["answer"] == text and response.json()["score"] == 0


def test_the_own_mode_form_works_without_javascript(player):
    response = player.post("/geography/answer/", {"text": "Atlantis"})
    assert response.status_code == 302 and response["location"] == "/geography/"
    page = player.get("/geography/").content.decode()
    assert 'data-verdict="wrong"' in page and "the answer is" in page


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "bad-json"),
        ("[1, 2]", "bad-json"),
        ('{"text": 5}', "answer-invalid"),
        (json.dumps({"text": "x" * 201}), "answer-too-long"),
    ],
)
def test_a_bad_answer_gets_a_clear_error_and_loses_nothing(player, body, code):
    before = _state(player)
    response = player.post("/geography/answer/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == code and response.json()["message"]
    assert _state(player) == before


def test_posts_need_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    client.get("/geography/")
    assert post_json(client, "/geography/answer/", {"text": "Peru"}).status_code == 403
    token = client.cookies["csrftoken"].value
    assert (
        post_json(client, "/geography/answer/", {"text": "Peru"}, headers={"X-CSRFToken": token}).status_code
        == 200
    )


def test_the_language_can_change_and_a_wrong_one_is_refused(player):
    assert post_json(player, "/geography/language/", {"language": "sk"}).json()["language"] == "sk"
    refused = post_json(player, "/geography/language/", {"language": "de"})
    assert refused.status_code == 400 and "en, ru, sk" in refused.json()["message"]
    assert _state(player)["language"] == "sk"


def test_a_new_game_starts_at_round_one_in_the_same_language(player):
    post_json(player, "/geography/language/", {"language": "ru"})
    post_json(player, "/geography/answer/", {"text": "Atlantis"})
    result = post_json(player, "/geography/new/", {}).json()
    assert (result["round"], result["score"], result["language"]) == (1, 0, "ru")


def test_a_clip_without_a_paired_wallet_asks_the_visitor_to_type(player, caplog):
    before = _state(player)
    with caplog.at_level("INFO", logger="sites.geography.views"):
        response = player.post("/geography/clip/", wav(1.0), content_type="audio/wav")
    assert [r.getMessage() for r in caplog.records if r.name == "sites.geography.views"] == [
        "geography: own mode, the wallet's transcript failed: NoPairing"
    ]
    assert response.status_code == 200
    assert response.json() == {
        "transcript": None,
        "message": "Your AI did not answer this time. Type your answer instead.",
    }
    assert _state(player) == before


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        (wav(17), "audio/wav", 413, "clip-too-large"),
        (wav(15.02), "audio/wav", 413, "clip-too-long"),
        (wav(1, rate=8000), "audio/wav", 400, "clip-invalid"),
        (wav(1, channels=2), "audio/wav", 400, "clip-invalid"),
        (b"not a wav at all", "audio/wav", 400, "clip-invalid"),
        (wav(0), "audio/wav", 400, "clip-empty"),
        (wav(1), "application/octet-stream", 415, "clip-invalid"),
    ],
    ids=["17 s", "just over 15 s", "8 kHz", "stereo", "not a WAV", "empty", "wrong type"],
)
def test_a_clip_that_does_not_fit_is_refused_with_a_clear_json_error(
    player, body, content_type, status, code
):
    response = player.post("/geography/clip/", body, content_type=content_type)
    assert response.status_code == status
    assert response.json()["error"] == code and response.json()["message"]


def test_a_clip_is_measured_from_its_samples_as_the_wallet_measures_it(player):
    # A RIFF size that claims almost nothing: the wallet (byoa.wire.wav) reads the samples anyway, so
    # the server does too, and refuses the clip only for what the wallet would refuse.
    too_long, short = bytearray(wav(15.02)), bytearray(wav(1.0))
    too_long[4:8] = short[4:8] = (36).to_bytes(4, "little")
    assert (
        player.post("/geography/clip/", bytes(too_long), content_type="audio/wav").json()["error"]
        == "clip-too-long"
    )
    assert (
        player.post("/geography/clip/", bytes(short), content_type="audio/wav").json()["transcript"] is None
    )


def test_an_oversized_body_is_refused_by_its_declared_length_before_it_is_read(player):
    response = player.post("/geography/clip/", b"", content_type="audio/wav", CONTENT_LENGTH="5000000")
    assert response.status_code == 413 and response.json()["error"] == "clip-too-large"


@pytest.mark.parametrize(
    ("url", "field"), [("/geography/answer/", "text"), ("/geography/language/", "language")]
)
def test_a_json_body_with_a_lone_surrogate_is_refused_with_400_and_the_game_is_unchanged(player, url, field):
    before = _state(player)
    # "\ud800" alone: JSON syntax, but no Unicode text.
    response = player.post(url, f'{{"{field}": "\\ud800"}}', content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "bad-json",
        "message": 'Send a JSON object of text, e.g. {"text": "Peru"}.',
    }
    assert _state(player) == before


def test_the_wallet_gets_the_clip_written_again_from_its_checked_samples_only(player, monkeypatch):
    from byoa.wire import wav as wav_files
    from sites.geography import views

    heard = []

    async def paired(request, manifest):
        return "a pairing"

    async def wallet(pairing, skill, input, params):
        heard.append(base64.b64decode(input["audio"]["base64"]))
        return {"text": "Peru"}

    monkeypatch.setattr(views, "aget_pairing", paired)
    monkeypatch.setattr(views, "call_wallet", wallet)
    sent = wav(0.1)
    # A chunk of its own before the samples, and bytes after them: the data chunk's size says where it ends.
    extra = b"LIST" + struct.pack("<I", 8) + b"<script>"
    posted = sent[:36] + extra + sent[36:] + b"<script>alert(1)</script>" * 1000
    response = player.post("/geography/clip/", posted, content_type="audio/wav")
    assert response.status_code == 200 and response.json()["transcript"] == "Peru"
    assert heard == [wav_files.write(wav_files.pcm(sent))]
    assert heard[0] == sent  # the same 0.1 s of samples in a plain 44-byte header, nothing else
