"""What a Grant keeps of the grant a wallet sends: what it can read, within bounds; the rest from a fallback."""

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from byoa.pairing.grants import MAX_MODELS, MAX_SKILL_CHARS, MAX_SKILLS, Grant

EXPIRES = "2099-01-01T00:00:00Z"
MANIFESTS = Path(__file__).parent / "manifests"
QUIZ = Grant.from_manifest(json.loads((MANIFESTS / "quiz.json").read_text()))
NOTHING = Grant(frozenset())


def test_a_grant_keeps_only_known_limits_with_plain_numbers():
    grant, unreadable = Grant.read(
        {
            "skills": ["audio.transcribe"],
            "expiresAt": EXPIRES,
            "limits": {
                "maxParallelCalls": 2,
                "maxCallSeconds": 12.5,
                "maxTextChars": True,
                "maxAnswerTokens": 10**400,
                "maxClipSeconds": -1,
                "maxCallsPerMinute": {"nested": "x" * 1000},
                "padding": "x" * 100_000,
            },
            "padding": "x" * 100_000,
        },
        NOTHING,
    )
    assert grant.as_json() == {
        "skills": ["audio.transcribe"],
        "expiresAt": EXPIRES,
        "limits": {"maxParallelCalls": 2, "maxCallSeconds": 12.5},
    }
    assert unreadable == [
        f"limits.{name}"
        for name in sorted(["maxTextChars", "maxAnswerTokens", "maxClipSeconds", "maxCallsPerMinute"])
    ]


def test_as_json_lists_models_sorted_and_round_trips():
    value = {"skills": ["text.generate"], "expiresAt": EXPIRES, "limits": {}, "models": {"m2": {}, "m1": {}}}
    grant, unreadable = Grant.read(value, NOTHING)
    assert grant.as_json()["models"] == ["m1", "m2"] and unreadable == []
    assert Grant.read(grant.as_json(), NOTHING) == (grant, [])


def test_a_manifest_gives_the_grant_to_fall_back_on():
    assert (
        Grant(
            frozenset({"text.generate"}),
            None,
            {"maxTextChars": 4000, "maxAnswerTokens": 200, "maxCallsPerMinute": 6000, "maxParallelCalls": 2},
            frozenset({"m1", "m2"}),
        )
        == QUIZ
    )
    assert Grant.from_manifest({"old": True}) == NOTHING


def test_a_missing_grant_is_the_manifests():
    assert Grant.read(None, QUIZ) == (QUIZ, ["grant"])
    assert Grant.read(["text.generate"], QUIZ) == (QUIZ, ["grant"])


@pytest.mark.parametrize(
    "expires", ["2099-01-01T00:00:00", "tomorrow", "", 4102444800, None, "0001-01-01T00:00:00+01:00"]
)
def test_an_expiry_without_a_time_zone_or_unparsable_is_unknown_and_not_checked(expires):
    grant, unreadable = Grant.read({"skills": ["text.generate"], "expiresAt": expires}, QUIZ)
    assert grant.expires_at is None and unreadable == ["expiresAt"]
    assert grant.as_json()["expiresAt"] is None
    assert grant.allows("text.generate", {}, datetime(2200, 1, 1, tzinfo=UTC))


def test_an_expiry_in_another_time_zone_is_kept_in_utc():
    grant, _ = Grant.read({"skills": [], "expiresAt": "2099-01-01T02:00:00+02:00"}, QUIZ)
    assert grant.as_json()["expiresAt"] == EXPIRES


@pytest.mark.parametrize(
    "models, expected, unreadable",
    [
        ([{"code": "m2", "name": "Big model"}, {"code": "m1"}], {"m1", "m2"}, []),
        ([{"code": "m1"}, {"name": "no code"}], {"m1"}, ["models"]),
        ([{"name": "Big model"}, {"id": 3}], {"m1", "m2"}, ["models"]),
        ("m1", {"m1", "m2"}, ["models"]),
        ([f"m{n}" for n in range(MAX_MODELS + 1)], {"m1", "m2"}, ["models"]),
    ],
)
def test_models_are_read_by_code_and_otherwise_are_the_manifests(models, expected, unreadable):
    grant, found = Grant.read({"skills": ["text.generate"], "expiresAt": EXPIRES, "models": models}, QUIZ)
    assert grant.models == frozenset(expected) and found == unreadable


@pytest.mark.parametrize(
    "skills, expected",
    [
        ("text.generate", {"text.generate"}),
        ({"text.generate": {}}, {"text.generate"}),
        ([f"s{n}" for n in range(MAX_SKILLS + 1)], {"text.generate"}),
        (["s" * (MAX_SKILL_CHARS + 1)], {"text.generate"}),
        (["audio.transcribe", 7, "bad\x00name"], {"audio.transcribe"}),
    ],
)
def test_skills_that_cannot_be_read_are_the_readable_ones_or_the_manifests(skills, expected):
    grant, unreadable = Grant.read({"skills": skills, "expiresAt": EXPIRES}, QUIZ)
    assert grant.skills == frozenset(expected) and unreadable == ["skills"]


def test_limits_of_the_wrong_type_are_the_manifests():
    grant, unreadable = Grant.read({"skills": [], "expiresAt": EXPIRES, "limits": "many"}, QUIZ)
    assert grant.limits == QUIZ.limits and unreadable == ["limits"]
    grant, unreadable = Grant.read(
        {"skills": [], "expiresAt": EXPIRES, "limits": {"maxParallelCalls": "3", "maxCallSeconds": 9}}, QUIZ
    )
    assert grant.limits == {"maxParallelCalls": 2, "maxCallSeconds": 9} and unreadable == [
        "limits.maxParallelCalls"
    ]
    assert grant.max_parallel == 2


def test_a_grant_that_states_no_limits_gets_the_spec_default_not_the_manifests():
    grant, unreadable = Grant.read({"skills": [], "expiresAt": EXPIRES}, QUIZ)
    assert grant.limits == {} and grant.max_parallel == 4 and unreadable == []
