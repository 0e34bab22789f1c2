"""A manifest in plain words for the page (byoa/pairing/describe.py)."""

import json
from pathlib import Path

from byoa.pairing.describe import Line
from byoa.pairing.describe import describe_manifest as describe

GEOGRAPHY = json.loads((Path(__file__).resolve().parents[2] / "sites/geography/manifest.json").read_text())


def test_the_geography_manifest_reads_as_plain_sentences():
    assert describe(GEOGRAPHY) == [
        Line("Purpose", "Family geography game: recognise country names spoken aloud"),
        Line(
            "Your AI will",
            "Listen to what you say and write it down, in English, Russian and Slovak; the site needs it.",
        ),
        Line("Limits", "Recordings of at most 15 seconds; at most 40 uses a minute."),
        Line(
            "Privacy",
            "Recordings of your voice are sent to your AI (and to its provider, if it runs elsewhere).",
        ),
        Line(
            "Expected cost",
            "About 0.05 USD a visit, paid to your own AI provider (nothing for an AI on your computer).",
        ),
    ]


def test_text_skills_with_models_and_every_known_limit_are_described():
    manifest = {
        "byoa": "0.1-draft",
        "purpose": {
            "summary": "Twenty Questions against your own model",
            "limits": {
                "maxTextChars": 4000,
                "maxAnswerTokens": 300,
                "maxCallSeconds": 30,
                "maxParallelCalls": 2,
            },
        },
        "skills": {
            "text.generate": {
                "required": True,
                "models": {
                    "count": 2,
                    "differentCompanies": True,
                    "need": "recommended",
                    "why": "a second opinion",
                },
            },
            "audio.transcribe": {"required": False},
        },
        "privacy": "public",
    }
    lines = {line.label: line.text for line in describe(manifest)}
    assert describe(manifest)[1].text == (
        "Answer in text, with 2 models from different companies "
        "(recommended: a second opinion); the site needs it."
    )
    assert describe(manifest)[2].text == "Listen to what you say and write it down; optional."
    assert lines["Limits"] == (
        "At most 4000 characters of text per use; answers of at most 300 tokens; "
        "at most 30 seconds per use; at most 2 uses at a time."
    )
    assert lines["Privacy"].startswith("Nothing personal")
    assert "Expected cost" not in lines


def test_an_unknown_limit_skill_or_privacy_is_shown_by_its_name_not_hidden():
    manifest = {
        "purpose": {"summary": "x", "limits": {"maxWidgets": 3}},
        "skills": {"image.describe": {"required": True}},
        "privacy": "galactic",
    }
    texts = [line.text for line in describe(manifest)]
    assert "Use the skill image.describe; the site needs it." in texts
    assert "The limit maxWidgets is 3." in texts
    assert "The site calls it 'galactic'." in texts
