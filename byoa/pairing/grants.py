"""
A wallet's grant, as its ``hello`` (or a later ``grant`` frame) states it, and what it lets the
server call: ``skills``, ``expiresAt``, ``limits`` and the ``models`` a call may name in
``params.model`` (specs/byoa-sites.md and DESIGN.md).

A grant that is partly unreadable does not refuse the pairing: ``Grant.read`` keeps what it can
read and takes the rest from a fallback (the manifest at a hello, the grant in force at a grant
frame). ``as_json()`` is what the database stores. Why: docs/explanation/modules.md.
"""

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import NotRequired, TypedDict

import bringyourownagent

from byoa.conf import byoa_setting
from byoa.pairing.manifests import EXTENSION_LIMITS

logger = logging.getLogger(__name__)

#: The limits a grant may state; others are dropped.
LIMITS = frozenset(bringyourownagent.KNOWN_LIMITS) | frozenset(EXTENSION_LIMITS)
MAX_LIMIT = 10**9  # a limit value beyond this is no limit worth keeping
MAX_SKILLS = 32
MAX_SKILL_CHARS = 64  # CallLog.skill
MAX_MODELS = 32
MAX_MODEL_CHARS = 32  # CallLog.model

#: A limit's value: a plain non-negative number (``_limit_ok``).
Limit = int | float


class GrantJSON(TypedDict):
    """A grant as the database keeps it (``Pairing.grant``) and the admin shows it."""

    skills: list[str]
    expiresAt: str | None  # 2026-10-12T23:04:10Z, or None when not known
    limits: dict[str, Limit]
    models: NotRequired[list[str]]  # absent: the grant names no models


@dataclass(frozen=True)
class Grant:
    """What a wallet lets the server call: skills, until when, within which limits, with which models."""

    skills: frozenset[str]
    expires_at: datetime | None = None  # None: not known (see the module's docstring)
    limits: dict[str, Limit] = field(default_factory=dict)
    models: frozenset[str] | None = None  # None: the grant names no models

    @classmethod
    def from_manifest(cls, manifest: object) -> "Grant":
        """Return what a manifest (a parsed object) asks for, as the grant to fall back on."""
        manifest = manifest if isinstance(manifest, dict) else {}
        skills = _object(manifest.get("skills"))
        purpose = _object(manifest.get("purpose"))
        limits = _object(purpose.get("limits"))
        names, _clean = _names(list(skills), MAX_SKILLS, MAX_SKILL_CHARS)
        return cls(names or frozenset(), None, _known_limits(limits), _manifest_models(skills))

    @classmethod
    def read(cls, value: object, fallback: "Grant") -> tuple["Grant", list[str]]:
        """Return (the Grant a wallet sent, the names of the fields it could not wholly read).

        What can be read is kept (the readable skills of a list with a bad
        entry, the readable limits); a field with nothing readable is
        ``fallback``'s.
        """
        if not isinstance(value, dict):
            return fallback, ["grant"]
        unreadable: list[str] = []
        skills, clean = _names(value.get("skills"), MAX_SKILLS, MAX_SKILL_CHARS)
        if not clean:
            unreadable.append("skills")
        expires_at = _timestamp(value.get("expiresAt"))
        if expires_at is None:
            unreadable.append("expiresAt")
            expires_at = fallback.expires_at
        limits = _read_limits(value.get("limits"), fallback.limits, unreadable)
        said_models = value.get("models")  # absent: the grant names no models
        models = None
        if said_models is not None:
            read_models, clean = _names(said_models, MAX_MODELS, MAX_MODEL_CHARS, by_code=True)
            if not clean:
                unreadable.append("models")
            models = fallback.models if read_models is None else read_models
        grant = cls(fallback.skills if skills is None else skills, expires_at, limits, models)
        return grant, unreadable

    def as_json(self) -> GrantJSON:
        """Return the grant as the database keeps it: only what this class understands."""
        value: GrantJSON = {
            "skills": sorted(self.skills),
            "expiresAt": _iso(self.expires_at),
            "limits": dict(self.limits),
        }
        if self.models is not None:
            value["models"] = sorted(self.models)
        return value

    @property
    def max_parallel(self) -> int:
        """Return how many calls may be in flight at once (the spec: 4 when the grant says none)."""
        value = self.limits.get("maxParallelCalls")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        parallel: int = byoa_setting("PARALLEL_CALLS")
        return parallel

    @property
    def max_call_seconds(self) -> Limit | None:
        """Return how long the wallet may work on one call, or None when the grant says not."""
        return self.limits.get("maxCallSeconds") or None

    def allows(self, skill: str, params: object, now: datetime) -> bool:
        """Return True when a call of this skill with these params is within the grant."""
        if (self.expires_at is not None and now >= self.expires_at) or skill not in self.skills:
            return False
        model = params.get("model") if isinstance(params, dict) else None
        return model is None or (self.models is not None and model in self.models)


def warn_unreadable(
    unreadable: list[str], pairing_id: int | None, source: str, wallet: Mapping[str, str] | None = None
) -> None:
    """Log which fields of a wallet's grant could not be read and where their values came from.

    The site's developer must be able to see why calls are limited as they
    are; the warning names fields and the wallet (as it calls itself, quoted),
    never a value, a code or a token.
    """
    if unreadable:
        who = f"wallet {wallet.get('name', '?')!r} {wallet.get('version', '?')!r}" if wallet else "the wallet"
        logger.warning(
            "BYOA pairing %s: the grant of %s has unreadable %s; the readable part is kept, the rest is %s",
            pairing_id,
            who,
            ", ".join(unreadable),
            source,
        )


def _object(value: object) -> dict[str, object]:
    """Return a JSON object as it is, anything else as an empty one."""
    return value if isinstance(value, dict) else {}


def _names(
    value: object, most: int, longest: int, by_code: bool = False
) -> tuple[frozenset[str] | None, bool]:
    """Return (the short names that can be read, whether every entry could), or (None, False).

    A list of names, or with ``by_code`` also an object keyed by name or a
    list of objects with a ``code``. A list of more than ``most`` entries is
    not read at all: a partial read could drop the one that matters.
    """
    if by_code and isinstance(value, dict):
        value = list(value)
    if not isinstance(value, list) or len(value) > most:
        return None, False
    names: list[str] = []
    for entry in value:
        if by_code and isinstance(entry, dict):
            entry = entry.get("code")
        if isinstance(entry, str) and 0 < len(entry) <= longest and entry.isprintable():
            names.append(entry)
    if value and not names:
        return None, False
    return frozenset(names), len(names) == len(value)


def _known_limits(limits: Mapping[str, object]) -> dict[str, Limit]:
    """Return the limits this server knows, with values that are plain non-negative numbers."""
    return {
        name: number
        for name, number in limits.items()
        if name in LIMITS and isinstance(number, (int, float)) and _limit_ok(number)
    }


def _limit_ok(number: object) -> bool:
    return (
        isinstance(number, (int, float))
        and not isinstance(number, bool)
        and 0 <= number <= MAX_LIMIT  # False for NaN and infinities too
    )


def _read_limits(limits: object, fallback: Mapping[str, Limit], unreadable: list[str]) -> dict[str, Limit]:
    """Return the known limits of a grant; one of the wrong type is the fallback's (and noted)."""
    if limits is None:
        return {}  # the spec's hello states none: the defaults apply
    if not isinstance(limits, dict):
        unreadable.append("limits")
        return dict(fallback)
    read = _known_limits(limits)
    for name in sorted(LIMITS & set(limits) - set(read)):
        unreadable.append(f"limits.{name}")
        if name in fallback:
            read[name] = fallback[name]
    return read


def _manifest_models(skills: Mapping[str, object]) -> frozenset[str] | None:
    """Return the codes m1, m2 ... of the models a manifest's text.generate asks for, or None."""
    block = _object(skills.get("text.generate"))
    models = _object(block.get("models"))
    count = models.get("count")
    if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= MAX_MODELS:
        return frozenset(f"m{n}" for n in range(1, count + 1))
    return None


def _iso(moment: datetime | None) -> str | None:
    """Return a UTC time as the spec writes it (2026-10-12T23:04:10Z), or None."""
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z") if moment is not None else None


def _timestamp(value: object) -> datetime | None:
    """Return an ISO 8601 time with a time zone, in UTC, or None."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
        # A time without a zone is not guessed at: read as UTC, a wallet's
        # local time could end the grant hours early (or late).
        return moment.astimezone(UTC) if moment.tzinfo is not None else None
    except (ValueError, OverflowError):  # OverflowError: 0001-01-01T00:00:00+01:00 is before year 1 in UTC
        return None
