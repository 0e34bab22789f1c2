"""
A wallet's grant, as its ``hello`` (or a later ``grant`` frame) states it, and
what it lets the server call.

The shape, from specs/byoa-sites.md and DESIGN.md::

    {"skills": ["text.generate"], "expiresAt": "2026-10-12T23:04:10Z",
     "limits": {"maxParallelCalls": 2, ...}, "models": ["m1", "m2"]}

``models`` lists the model codes the visitor ticked (an object keyed by code
is accepted too); a call names one in ``params.model`` and may name no other.

A hello may be 4 MB, so a Grant keeps only what it understands, within the
bounds below, and ``as_json()`` is what the database stores.
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime

import bringyourownagent

from byoa.conf import byoa_setting
from byoa.manifests import EXTENSION_LIMITS

#: The limits a grant may state; others are dropped.
LIMITS = frozenset(bringyourownagent.KNOWN_LIMITS) | frozenset(EXTENSION_LIMITS)
MAX_LIMIT = 10**9  # a limit value beyond this is no limit worth keeping
MAX_SKILLS = 32
MAX_SKILL_CHARS = 64  # CallLog.skill
MAX_MODELS = 32
MAX_MODEL_CHARS = 32  # CallLog.model


@dataclass(frozen=True)
class Grant:
    skills: frozenset
    expires_at: datetime
    limits: dict = field(default_factory=dict)
    models: frozenset | None = None  # None: the grant names no models

    @classmethod
    def parse(cls, value):
        """Return the Grant a wallet sent, or None when it is not a grant."""
        if not isinstance(value, dict):
            return None
        skills = _names(value.get("skills"), MAX_SKILLS, MAX_SKILL_CHARS, kinds=(list,))
        if skills is None:
            return None
        expires_at = _timestamp(value.get("expiresAt"))
        if expires_at is None:
            return None
        limits = value.get("limits") or {}
        if not isinstance(limits, dict):
            return None
        models = value.get("models")
        if models is not None:
            models = _names(models, MAX_MODELS, MAX_MODEL_CHARS, kinds=(list, dict))
            if models is None:
                return None
        return cls(skills, expires_at, _known_limits(limits), models)

    def as_json(self):
        """Return the grant as the database keeps it: only what this class understands."""
        value = {
            "skills": sorted(self.skills),
            "expiresAt": self.expires_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "limits": dict(self.limits),
        }
        if self.models is not None:
            value["models"] = sorted(self.models)
        return value

    @property
    def max_parallel(self):
        """Return how many calls may be in flight at once (the spec: 4 when the grant says none)."""
        value = self.limits.get("maxParallelCalls")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        return byoa_setting("PARALLEL_CALLS")

    @property
    def max_call_seconds(self):
        """Return how long the wallet may work on one call, or None when the grant says not."""
        return self.limits.get("maxCallSeconds") or None

    def allows(self, skill, params, now):
        """Return True when a call of this skill with these params is within the grant."""
        if now >= self.expires_at or skill not in self.skills:
            return False
        model = params.get("model") if isinstance(params, dict) else None
        if model is not None and (self.models is None or model not in self.models):
            return False
        return True


def _names(value, most, longest, kinds):
    """Return a frozenset of short strings, or None when value is not a small list (or object) of them."""
    if not isinstance(value, kinds) or len(value) > most:
        return None
    if not all(isinstance(name, str) and len(name) <= longest for name in value):
        return None
    return frozenset(value)


def _known_limits(limits):
    """Return the limits this server knows, with values that are plain non-negative numbers."""
    return {
        name: number
        for name, number in limits.items()
        if name in LIMITS
        and isinstance(number, (int, float))
        and not isinstance(number, bool)
        and 0 <= number <= MAX_LIMIT  # False for NaN and infinities too
    }


def _timestamp(value):
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
