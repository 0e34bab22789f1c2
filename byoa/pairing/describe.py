"""
A manifest in plain words: what a site asks of the visitor's AI, for the page
to show before any click (purpose, skills, languages, limits, privacy and
expected cost). Every sentence is built from the manifest itself, so the page
cannot promise something other than what the wallet will be asked.

    from byoa.pairing import manifests
    from byoa.pairing.describe import describe_manifest

    lines = describe_manifest(manifests.get_manifest("geography").data)   # [Line(label, text), ...]
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import get_language_info

__all__ = ["Line", "describe_manifest"]

# What the AI will do, in a visitor's words: the skill's id is for "How this page works" and the docs.
SKILLS = {
    "audio.transcribe": "listen to what you say and write it down",
    "text.generate": "answer in text",
}

PRIVACY = {
    "public": "Nothing personal is sent: only what anyone may see on the site.",
    "personal": "What is sent may be about you; your AI and its provider see it, nobody else.",
    "personal-voice": (
        "Recordings of your voice are sent to your AI (and to its provider, if it runs elsewhere)."
    ),
    "sensitive": "What is sent may be sensitive personal data; use an AI you trust with it.",
    "local-only": "Only an AI running on your own computer may be used: nothing leaves it.",
}

# limit name -> sentence with {value}
LIMITS = {
    "maxClipSeconds": "recordings of at most {value} seconds",
    "maxCallsPerMinute": "at most {value} uses a minute",
    "maxTextChars": "at most {value} characters of text per use",
    "maxAnswerTokens": "answers of at most {value} tokens",
    "maxCallSeconds": "at most {value} seconds per use",
    "maxParallelCalls": "at most {value} uses at a time",
}


@dataclass(frozen=True)
class Line:
    """One line for the page: what it is about, and the sentence."""

    label: Literal["Purpose", "Your AI will", "Limits", "Privacy", "Expected cost"]
    text: str


# Any: a valid manifest (byoa.pairing.manifests.Manifest.data), whose shape the validators checked.
def describe_manifest(manifest: Mapping[str, Any]) -> list[Line]:
    """Return the plain-language Lines of a valid manifest object."""
    purpose = manifest.get("purpose", {})
    lines = [Line("Purpose", purpose.get("summary", ""))]
    skills = manifest.get("skills", {})
    lines.extend(Line("Your AI will", _skill(skill, spec)) for skill, spec in skills.items())
    limits = [_limit(name, value) for name, value in (purpose.get("limits") or {}).items()]
    if limits:
        lines.append(Line("Limits", _sentence("; ".join(limits))))
    privacy = manifest.get("privacy")
    said = PRIVACY.get(privacy) if isinstance(privacy, str) else None
    lines.append(Line("Privacy", said or f"The site calls it {privacy!r}."))
    cost = (manifest.get("expectedCost") or {}).get("perSession")
    if cost:
        lines.append(
            Line(
                "Expected cost",
                f"About {cost} a visit, paid to your own AI provider (nothing for an AI on your computer).",
            )
        )
    return lines


def _skill(skill: str, spec: object) -> str:
    # A skill this module has no words for is named, not hidden.
    text = SKILLS.get(skill, f"use the skill {skill}")
    languages = spec.get("languages") if isinstance(spec, dict) else None
    if languages:
        text += ", in " + _join([_language(code) for code in languages])
    models: dict[str, Any] | None = spec.get("models") if isinstance(spec, dict) else None
    if models:
        count = models["count"]
        text += f", with {count} model{'s' if count != 1 else ''}"
        if models.get("differentCompanies"):
            text += " from different companies"
        text += f" ({models['need']}: {models['why']})"
    required = spec.get("required") if isinstance(spec, dict) else None
    text += "; the site needs it" if required else "; optional"
    return _sentence(text)


def _language(code: str) -> str:
    try:
        name: str = get_language_info(code)["name"]
        return name
    except KeyError:
        return code


def _limit(name: str, value: object) -> str:
    return LIMITS.get(name, "the limit " + name + " is {value}").format(value=value)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
