"""
The checks of one BYOA call, read from the rule book beside the skill table
(``frontend/testwallet/skills.json``, shipped beside this module): the same rules the in-page
stand-in reads in ``byoa-checks.js``, for the headless wallet and the Python driver.
``tests/testwallet/test_call_checks.py`` sends both readers the same calls. Needs no Django.
"""

import base64
import binascii
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from byoa.wire import wav

__all__ = ["REFUSALS", "SKILLS", "Checked", "Refused", "check_call", "manifest_limit"]

_TABLE = json.loads((Path(__file__).parent / "skills.json").read_text())

#: The skill table: each skill the stand-ins serve with its input, params, output and default answer.
SKILLS: dict[str, dict[str, Any]] = _TABLE["skills"]

#: Each reason the checks refuse a call, in the order they are checked, with the spec's sentence.
REFUSALS: dict[str, str] = _TABLE["refusals"]

#: The largest number a manifest's limit may be (JSON's safe integers, as byoa-manifest.js reads them).
_MAX_NUMBER = 2**53 - 1
#: Strict base64: the alphabet, padded to a multiple of 4 (as byoa-clip.js reads it).
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


@dataclass(frozen=True)
class Checked:
    """A call the rules let through: what was measured, and the params as the model gets them."""

    summary: dict[str, Any]
    params: dict[str, Any]


@dataclass(frozen=True)
class Refused:
    """A call the rules refuse, with its reason (a key of :data:`REFUSALS`)."""

    code: str


def manifest_limit(manifest: dict[str, Any], name: str) -> float | None:
    """Return a number limit the manifest's purpose sets, or None when it sets none (or a bad one)."""
    limits = manifest.get("purpose", {}).get("limits")
    value = limits.get(name) if isinstance(limits, dict) else None
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    return value if 0 <= value <= _MAX_NUMBER else None


def check_call(
    skill: str, input: dict[str, Any], params: dict[str, Any], manifest: dict[str, Any], models: list[str]
) -> Checked | Refused:
    """Check one call of a granted ``skill`` against its row, the manifest and the granted ``models``."""
    declared = SKILLS.get(skill)
    if params.get("model") is not None and params["model"] not in models:
        return Refused("model-not-granted")
    if declared is None:
        return Refused("skill-not-served")
    if declared["input"] == "audio":
        measured = _measure_clip(declared, input.get("audio"))
        if measured is None:
            return Refused("audio-invalid")
        summary: dict[str, Any] = {"audio": measured}
        most = declared.get("maxClipSeconds", math.inf)
        own = manifest_limit(manifest, "maxClipSeconds")
        if measured["clipSeconds"] > min(most if own is None else own, most):
            return Refused("clip-too-long")
    elif declared["input"] == "messages":
        messages = input.get("messages")
        if not isinstance(messages, list) or not messages or not all(_is_message(m) for m in messages):
            return Refused("messages-invalid")
        chars = sum(len(m["content"]) for m in messages)
        most_chars = manifest_limit(manifest, "maxTextChars")
        if most_chars is not None and chars > most_chars:
            return Refused("text-too-long")
        summary = {"messages": len(messages), "textChars": chars}
    else:
        return Refused("skill-not-served")
    for name, kind in declared["params"].items():
        if params.get(name) is not None and not _PARAM_TYPES[kind](params[name]):
            return Refused("params-invalid")
    languages = manifest.get("skills", {}).get(skill, {}).get("languages")
    language = params.get("language")
    declares = "language" in declared["params"] and isinstance(languages, list)
    if declares and language is not None and language not in languages:
        return Refused("language-not-declared")
    cap = manifest_limit(manifest, "maxAnswerTokens")
    if "maxTokens" in declared["params"] and cap is not None and float(cap).is_integer():
        params = {**params, "maxTokens": min(params.get("maxTokens") or int(cap), int(cap))}
    return Checked(summary, params)


def _measure_clip(declared: dict[str, Any], audio: object) -> dict[str, Any] | None:
    """Return the clip's mime, bytes and seconds measured from its samples, or None when it is no clip."""
    if not isinstance(audio, dict) or audio.get("mime") != declared["mime"]:
        return None
    text = audio.get("base64")
    if not isinstance(text, str) or len(text) % 4 or not _BASE64.fullmatch(text):
        return None
    try:
        data = base64.b64decode(text, validate=True)
        found = wav.read(data)
    except (binascii.Error, wav.NotAClip):
        return None
    want = declared["wav"]
    if (found.channels, found.rate, found.bits) != (want["channels"], want["rate"], want["bits"]):
        return None
    return {"mime": audio["mime"], "bytes": len(data), "clipSeconds": found.seconds}


def _is_message(message: object) -> bool:
    return (
        isinstance(message, dict)
        and isinstance(message.get("role"), str)
        and isinstance(message.get("content"), str)
    )


_PARAM_TYPES = {
    "string": lambda value: isinstance(value, str),
    "positiveInteger": lambda value: isinstance(value, int) and not isinstance(value, bool) and value >= 1,
    "strings": lambda value: isinstance(value, list) and all(isinstance(item, str) for item in value),
}
