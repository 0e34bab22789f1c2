"""
Manifests for the test wallet's ``window.byoa``: the two the tests use, and a
table of good and bad manifests on which ``frontend/testwallet/byoa.js`` must
agree with the ``bringyourownagent`` library (codes, paths and messages).

Every value is JSON (what crosses from the page to the extension). Floats
that are whole numbers are kept out of quoted positions: Python prints 1.0
where JavaScript, which has one number type, prints 1.
"""

import copy

#: Leaves a field out of a manifest built by manifest().
ABSENT = object()


def manifest(**changes):
    """Return the geography manifest with top-level fields replaced (ABSENT removes one)."""
    value = copy.deepcopy(GEO)
    for key, new in changes.items():
        if new is ABSENT:
            value.pop(key, None)
        else:
            value[key] = new
    return value


def with_limits(**limits):
    """Return the geography manifest with these purpose.limits."""
    value = copy.deepcopy(GEO)
    value["purpose"]["limits"] = limits
    return value


#: The voice geography game of specs/byoa-sites.md.
GEO = {
    "byoa": "0.1-draft",
    "purpose": {
        "summary": "Family geography game: recognise country names spoken aloud",
        "limits": {"maxClipSeconds": 15, "maxCallsPerMinute": 40},
    },
    "skills": {"audio.transcribe": {"languages": ["en", "ru", "sk"], "required": True}},
    "privacy": "personal-voice",
    "expectedCost": {"perSession": "0.05 USD"},
}

#: Twenty Questions: text answers from two models of different companies.
QUIZ = {
    "byoa": "0.1-draft",
    "purpose": {
        "summary": "Twenty Questions: the visitor's model answers yes or no",
        "limits": {"maxTextChars": 4000, "maxAnswerTokens": 50, "maxCallsPerMinute": 60},
    },
    "skills": {
        "text.generate": {
            "required": True,
            "models": {"count": 2, "differentCompanies": True, "need": "recommended", "why": "Two opinions"},
        }
    },
    "privacy": "personal",
    "expectedCost": {"perSession": "0.01 USD"},
}

_SUMMARY_200_ASTRAL = "\U0001f30d" * 200  # 200 code points, 400 UTF-16 units

#: (id, manifest) pairs: valid ones (some with warnings) and invalid ones.
CASES = [
    ("geography", GEO),
    ("quiz with models block and extension limits", QUIZ),
    ("no expected cost", manifest(expectedCost=ABSENT)),
    ("expected cost null is absent", manifest(expectedCost=None)),
    (
        "expected cost per hour and an unknown period",
        manifest(expectedCost={"perHour": "1 EUR", "perDay": "2 EUR"}),
    ),
    ("only an optional skill", manifest(skills={"text.generate": {"required": False}})),
    (
        "unknown but well formed skill",
        manifest(skills={"audio.transcribe": {"required": True}, "music.compose": {"required": False}}),
    ),
    (
        "unknown top-level fields sorted by code point",
        manifest(**{"zeta": 1, "Alpha": 2, "\uffff": 3, "\U0001f600": 4, "é": 5}),
    ),
    ("a field named constructor is not inherited", manifest(constructor={"a": 1})),
    ("whole float count", with_limits(maxCallsPerMinute=20.0, maxClipSeconds=2.5)),
    ("largest exact number", with_limits(maxTextChars=9007199254740991)),
    ("summary of 200 astral code points", manifest(purpose={"summary": _SUMMARY_200_ASTRAL})),
    ("unknown purpose field", manifest(purpose={"summary": "Quiz", "audience": "kids"})),
    # M1
    ("array", [GEO]),
    ("string", "manifest"),
    ("null", None),
    ("number", 3),
    # M2, M3
    ("version missing", manifest(byoa=ABSENT)),
    ("version 0.2", manifest(byoa="0.2")),
    ("version as number", manifest(byoa=0.1)),
    ("version as array", manifest(byoa=["0.1-draft", 2])),
    ("version as object", manifest(byoa={"v": "0.1-draft", "n": [1, True, None]})),
    # M4-M9
    ("purpose missing", manifest(purpose=ABSENT)),
    ("purpose a string", manifest(purpose="a game")),
    ("summary blank", manifest(purpose={"summary": " \t\u3000\u2028"})),
    ("summary not a string", manifest(purpose={"summary": 42})),
    ("summary of 201 characters", manifest(purpose={"summary": "x" * 201})),
    ("summary with quotes and controls", manifest(purpose={"summary": "x" * 200 + '"\n\u0001é'})),
    ("limits not an object", manifest(purpose={"summary": "Quiz", "limits": [1]})),
    ("negative rate", with_limits(maxCallsPerMinute=-1)),
    ("fractional rate", with_limits(maxCallsPerMinute=1.5)),
    ("rate as string", with_limits(maxCallsPerMinute="10")),
    ("rate as boolean", with_limits(maxCallsPerMinute=True)),
    ("rate above 2**53-1", with_limits(maxTextChars=9007199254740992)),
    ("negative clip seconds", with_limits(maxClipSeconds=-0.5)),
    ("unknown limit", with_limits(maxFun=3, maxClipSeconds="15")),
    # M10-M15
    ("skills missing", manifest(skills=ABSENT)),
    ("skills empty", manifest(skills={})),
    ("skills all null", manifest(skills={"audio.transcribe": None})),
    ("skills an array", manifest(skills=["audio.transcribe"])),
    ("skill id in capitals", manifest(skills={"Audio.Transcribe": {"required": True}})),
    ("skill id without action", manifest(skills={"audio": {"required": True}})),
    ("skill id with three parts", manifest(skills={"audio.transcribe.fast": {"required": True}})),
    ("skill id with slash and tilde", manifest(skills={"a/b.c~d": {"required": True}})),
    ("skill id named toString", manifest(skills={"toString": {"required": True}})),
    ("skill id too long", manifest(skills={"a" * 60 + ".bcde": {"required": True}})),
    ("skill entry not an object", manifest(skills={"audio.transcribe": True})),
    ("required missing", manifest(skills={"audio.transcribe": {"languages": ["en"]}})),
    ("required a string", manifest(skills={"audio.transcribe": {"required": "yes"}})),
    # M16, M17
    ("privacy missing", manifest(privacy=ABSENT)),
    ("privacy unknown", manifest(privacy="secret")),
    ("privacy a number", manifest(privacy=1)),
    # M18-M20
    ("cost a string", manifest(expectedCost="0.05 USD")),
    ("cost without currency", manifest(expectedCost={"perSession": "0.05"})),
    ("cost with seven decimals", manifest(expectedCost={"perSession": "0.1234567 USD"})),
    ("cost with a leading zero", manifest(expectedCost={"perSession": "01 USD"})),
    ("cost in lower case", manifest(expectedCost={"perCall": "5 usd"})),
    ("cost a number", manifest(expectedCost={"perCall": 5})),
    (
        "everything wrong",
        {"byoa": 1, "purpose": [], "skills": {"x": 1}, "privacy": None, "expectedCost": [], "extra": 1},
    ),
]
