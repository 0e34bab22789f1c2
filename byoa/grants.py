"""
A wallet's grant, as its ``hello`` (or a later ``grant`` frame) states it, and
what it lets the server call.

The shape, from specs/byoa-sites.md and DESIGN.md::

    {"skills": ["text.generate"], "expiresAt": "2026-10-12T23:04:10Z",
     "limits": {"maxParallelCalls": 2, ...}, "models": ["m1", "m2"]}

``models`` lists the model codes the visitor ticked (an object keyed by code
is accepted too); a call names one in ``params.model`` and may name no other.
"""

from dataclasses import dataclass, field
from datetime import datetime

from byoa.conf import byoa_setting


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
        skills = value.get("skills")
        if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
            return None
        expires_at = _timestamp(value.get("expiresAt"))
        if expires_at is None:
            return None
        limits = value.get("limits") or {}
        if not isinstance(limits, dict):
            return None
        models = value.get("models")
        if models is not None:
            if not isinstance(models, (list, dict)) or not all(isinstance(m, str) for m in models):
                return None
            models = frozenset(models)
        return cls(frozenset(skills), expires_at, dict(limits), models)

    @property
    def max_parallel(self):
        """Return how many calls may be in flight at once (the spec: 4 when the grant says none)."""
        value = self.limits.get("maxParallelCalls")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        return byoa_setting("PARALLEL_CALLS")

    def allows(self, skill, params, now):
        """Return True when a call of this skill with these params is within the grant."""
        if now >= self.expires_at or skill not in self.skills:
            return False
        model = params.get("model") if isinstance(params, dict) else None
        if model is not None and (self.models is None or model not in self.models):
            return False
        return True


def _timestamp(value):
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
