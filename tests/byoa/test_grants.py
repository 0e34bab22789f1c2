"""What a Grant keeps of the grant a wallet sends: only what it understands, within bounds."""

from byoa.grants import MAX_MODELS, MAX_SKILL_CHARS, MAX_SKILLS, Grant

EXPIRES = "2099-01-01T00:00:00Z"


def test_a_grant_keeps_only_known_limits_with_plain_numbers():
    grant = Grant.parse(
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
        }
    )
    assert grant.as_json() == {
        "skills": ["audio.transcribe"],
        "expiresAt": EXPIRES,
        "limits": {"maxParallelCalls": 2, "maxCallSeconds": 12.5},
    }


def test_as_json_lists_models_sorted_and_round_trips():
    value = {"skills": ["text.generate"], "expiresAt": EXPIRES, "limits": {}, "models": {"m2": {}, "m1": {}}}
    grant = Grant.parse(value)
    assert grant.as_json()["models"] == ["m1", "m2"]
    assert Grant.parse(grant.as_json()) == grant


def test_a_grant_over_the_size_bounds_is_not_a_grant():
    base = {"expiresAt": EXPIRES}
    assert Grant.parse({**base, "skills": [f"s{n}" for n in range(MAX_SKILLS + 1)]}) is None
    assert Grant.parse({**base, "skills": ["s" * (MAX_SKILL_CHARS + 1)]}) is None
    assert Grant.parse({**base, "skills": ["text.generate"], "models": [f"m{n}" for n in range(MAX_MODELS + 1)]}) is None
    assert Grant.parse({"skills": [], "expiresAt": EXPIRES + " " * 100}) is None
