"""
The site's BYOA manifests: where they are declared, how they are checked, and the exact bytes
that go into links and welcomes.

Each installed app may declare one manifest in a ``manifest.json`` beside its code (its name is
the app label); ``BYOA["MANIFESTS"]`` adds others by path. Each is checked by
``bringyourownagent.validate_manifest`` and by a JSON Schema for the extension fields it does
not know yet, and serialised once, compactly: those bytes, in base64url, are what every link
and welcome carries. Why: docs/explanation/modules.md.
"""

import base64
import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import bringyourownagent
import jsonschema
from django.apps import apps
from django.core.signals import setting_changed
from django.dispatch import receiver

from byoa.conf import byoa_setting
from byoa.exceptions import ManifestError, UnknownManifest
from byoa.wire.protocol import MAX_MANIFEST_BYTES

__all__ = ["Manifest", "declared", "get_manifest", "load", "loaded"]


FILE_NAME = "manifest.json"

#: Limits the wallet 0.1 understands that bringyourownagent 0.0.2 does not.
EXTENSION_LIMITS = ("maxParallelCalls", "maxAnswerTokens", "maxCallSeconds")

EXTENSION_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "purpose": {
            "type": "object",
            "properties": {
                "limits": {
                    "type": "object",
                    "properties": {
                        "maxParallelCalls": {"type": "integer", "minimum": 1, "maximum": 64},
                        "maxAnswerTokens": {"type": "integer", "minimum": 1, "maximum": 1000000},
                        "maxCallSeconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 3600},
                    },
                }
            },
        },
        "skills": {
            "type": "object",
            "properties": {
                "text.generate": {"type": "object", "properties": {"models": {"$ref": "#/$defs/models"}}}
            },
            # Only text answers are given by several models (specs/byoa-sites.md).
            "additionalProperties": {"type": "object", "not": {"required": ["models"]}},
        },
    },
    "$defs": {
        "models": {
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 1, "maximum": 8},
                "differentCompanies": {"type": "boolean"},
                "need": {"enum": ["required", "recommended"]},
                "why": {"type": "string", "minLength": 1, "maxLength": 300, "pattern": "\\S"},
            },
            "required": ["count", "need", "why"],
            "additionalProperties": False,
        }
    },
}

# How to fix what the validators report, by their code.
_FIXES = {
    "manifest-not-object": 'Make the file one JSON object: {"byoa": "0.1-draft", ...}.',
    "version-missing": 'Add "byoa": "0.1-draft".',
    "version-unsupported": 'Use "byoa": "0.1-draft".',
    "purpose-missing": 'Add "purpose": {"summary": "<one sentence for the visitor>"}.',
    "summary-missing": 'Write one short sentence in "purpose.summary".',
    "summary-too-long": "Shorten the summary to 200 characters or fewer.",
    "limit-invalid": "Use a whole number (or a number of seconds) from 0 upwards.",
    "limit-unknown": "Check the spelling; the wallet ignores limits it does not know.",
    "skills-missing": 'Add "skills": {"audio.transcribe": {"required": true}} or the skill you use.',
    "skill-id-invalid": 'Name the skill as domain.action in lower case, e.g. "text.generate".',
    "skill-unknown": "Check the spelling against the skills the wallet serves.",
    "skill-invalid": "Make the skill's value an object of its parameters.",
    "skill-required-invalid": 'Add "required": true or false to the skill.',
    "no-required-skill": 'Mark the skill your feature needs with "required": true.',
    "privacy-missing": 'Add "privacy": one of public, personal, personal-voice, sensitive, local-only.',
    "privacy-unknown": "Use one of: public, personal, personal-voice, sensitive, local-only.",
    "cost-missing": 'Add "expectedCost": {"perSession": "0.05 USD"}.',
    "cost-invalid": 'Write money as a string such as "0.05 USD".',
    "field-unknown": "Remove the field or check its spelling; this version ignores it.",
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a manifest, at a JSON Pointer, with how to fix it."""

    level: Literal["error", "warning"]
    code: str  # the validator's stable code, e.g. "summary-missing"
    pointer: str  # JSON Pointer into the manifest ("" is the whole document)
    message: str
    fix: str

    @property
    def is_error(self) -> bool:
        return self.level == "error"


@dataclass(frozen=True)
class Manifest:
    """A valid manifest and the exact bytes links and welcomes carry."""

    name: str
    path: Path
    # Any: a valid manifest, read by the site's code (its shape is the spec's and bringyourownagent's).
    data: dict[str, Any]
    json_bytes: bytes
    encoded: str  # base64url of json_bytes, no padding

    def limit(self, name: str, default: object = None) -> object:
        """Return purpose.limits[name], or default."""
        return (self.data.get("purpose", {}).get("limits") or {}).get(name, default)


def encode(data: object) -> tuple[bytes, str]:
    """Return (JSON bytes, base64url text without padding) of a manifest object."""
    json_bytes = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return json_bytes, base64.urlsafe_b64encode(json_bytes).rstrip(b"=").decode("ascii")


def decode(encoded: str) -> dict[str, object]:
    """Return the manifest object of a base64url text that ``encode`` made, or {} when it is not one."""
    try:
        data = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    except (ValueError, TypeError):  # binascii.Error and UnicodeDecodeError are ValueErrors
        return {}
    return data if isinstance(data, dict) else {}


def validate(data: object) -> list[Problem]:
    """Return the problems of a parsed manifest: the library's, then the extension fields'."""
    result = bringyourownagent.validate_manifest(data)
    problems = [_problem("error", issue) for issue in result["errors"]]
    for issue in result["warnings"]:
        # The library warns about limits it does not know; we check those ourselves.
        known_here = issue["code"] == "limit-unknown" and issue["path"].rsplit("/", 1)[-1] in EXTENSION_LIMITS
        if not known_here:
            problems.append(_problem("warning", issue))
    if isinstance(data, dict):
        validator = jsonschema.Draft202012Validator(EXTENSION_SCHEMA)
        for error in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
            problems.append(_schema_problem(error))
    json_bytes, encoded = encode(data)
    if len(json_bytes) > MAX_MANIFEST_BYTES:
        problems.append(
            Problem(
                "error",
                "manifest-too-large",
                "",
                f"the manifest is {len(json_bytes)} bytes of JSON; "
                f"a link carries at most {MAX_MANIFEST_BYTES}",
                "Shorten the summary, the reasons and the lists until it fits.",
            )
        )
    elif len(encoded) > MAX_MANIFEST_BYTES:
        problems.append(
            Problem(
                "warning",
                "link-parameter-large",
                "",
                f"the manifest's base64url text is {len(encoded)} characters; a wallet that reads the "
                f"{MAX_MANIFEST_BYTES}-byte limit as the link parameter's length would refuse it",
                f"Keep the JSON under {MAX_MANIFEST_BYTES * 3 // 4} bytes to be safe with every wallet.",
            )
        )
    return problems


def _problem(level: Literal["error", "warning"], issue: bringyourownagent.Issue) -> Problem:
    return Problem(level, issue["code"], issue["path"], issue["message"], _FIXES.get(issue["code"], ""))


def _schema_problem(error: jsonschema.ValidationError) -> Problem:
    pointer = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path)
    if pointer.startswith("/skills/") and error.validator == "not":
        message = 'only "text.generate" may have a "models" block'
        fix = 'Move "models" to the text.generate skill or remove it.'
    else:
        message = error.message
        fix = (
            'Give "models" a "count" (1-8), "need" ("required" or "recommended") and "why"; '
            '"differentCompanies" is optional.'
            if "/models" in pointer
            else "Use a positive number within the documented range."
        )
    return Problem("error", "extension-invalid", pointer, message, fix)


#: What ``load`` makes of a manifest file: the Manifest (None when it cannot be used) and its problems.
Loaded = tuple["Manifest | None", list[Problem]]


def load(name: str, path: str | os.PathLike[str]) -> Loaded:
    """Read, check and encode one manifest file; return (Manifest or None, problems)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        message = f"cannot read {path}: {exc.strerror}"
        return None, [Problem("error", "file-unreadable", "", message, "Check the path.")]
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        message = f"{path} is not UTF-8 JSON: {exc}"
        return None, [Problem("error", "not-json", "", message, "Fix the JSON syntax.")]
    problems = validate(data)
    if any(problem.is_error for problem in problems):
        return None, problems
    json_bytes, encoded = encode(data)
    return Manifest(name, path, data, json_bytes, encoded), problems


def declared() -> dict[str, Path]:
    """Return {name: path} of every manifest: apps' manifest.json, then BYOA["MANIFESTS"]."""
    found = {}
    for app_config in apps.get_app_configs():
        candidate = Path(app_config.path) / FILE_NAME
        if candidate.is_file():
            found[app_config.label] = candidate
    found.update({name: Path(path) for name, path in byoa_setting("MANIFESTS").items()})
    return found


@functools.cache
def loaded() -> dict[str, Loaded]:
    """Return {name: (Manifest or None, problems)}, loaded once per process (until BYOA or the apps change)."""
    return {name: load(name, path) for name, path in declared().items()}


def get_manifest(name: str | None = None) -> Manifest:
    """Return the valid manifest called ``name`` (or the default one)."""
    table = loaded()
    if name is None:
        name = byoa_setting("DEFAULT_MANIFEST")
        if name is None and len(table) == 1:
            name = next(iter(table))
    if name not in table:
        raise UnknownManifest(name, table)
    manifest, _problems = table[name]
    if manifest is None:
        raise ManifestError(f"The BYOA manifest {name!r} is invalid; run `manage.py check` to see why.")
    return manifest


@receiver(setting_changed)
def _forget_on_setting_change(setting: str, **kwargs: object) -> None:
    if setting in ("BYOA", "INSTALLED_APPS"):
        loaded.cache_clear()
