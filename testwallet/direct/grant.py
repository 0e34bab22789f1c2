"""
The grant a headless wallet gives a site: what the visitor allows of a manifest (skills, models,
limits, an expiry), a change of it, and the grant and call as ``bringyourownagent``'s gate reads
them, with the spending and call times the gate counts against.
"""

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import bringyourownagent

from testwallet.direct.backends import SkillBackend

WALLET_PARALLEL_CALLS = 8  # the wallet 0.1's default (specs/byoa-sites.md)


def grant_for(
    manifest: dict[str, Any],
    backend: SkillBackend,
    chosen_models: list[str] | None,
    extra_limits: Mapping[str, Any],
    grant_seconds: float,
) -> dict[str, Any] | None:
    """Return the grant the visitor gives this manifest, or None when it cannot be served."""
    served = backend.skills()
    skills = []
    for skill, entry in manifest["skills"].items():
        if skill in served:
            skills.append(skill)
        elif entry.get("required"):
            return None
    if not skills:
        return None
    limits = dict(manifest["purpose"].get("limits") or {})
    asked = limits.get("maxParallelCalls", WALLET_PARALLEL_CALLS)
    limits["maxParallelCalls"] = min(asked, WALLET_PARALLEL_CALLS)
    limits.update(extra_limits)
    expires = datetime.now(UTC) + timedelta(seconds=grant_seconds)
    grant: dict[str, Any] = {
        "skills": sorted(skills),
        "expiresAt": expires.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "limits": limits,
    }
    text = manifest["skills"].get("text.generate", {}) if "text.generate" in skills else {}
    block = text.get("models")
    if isinstance(block, dict):
        offered = _offered(backend, chosen_models)
        count = block.get("count", 1)
        if block.get("need") == "required" and len(offered) < count:
            return None
        grant["models"] = offered[:count]
    return grant


def changed_grant(
    grant: dict[str, Any],
    manifest: dict[str, Any],
    backend: SkillBackend,
    chosen_models: list[str] | None,
    *,
    skills: list[str] | None,
    models: list[str] | None,
    limits: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """Return ``grant`` with the ticked skills and models replaced and ``limits`` set on top.

    A skill the manifest did not ask or the wallet does not have, or a model not offered, raises
    ValueError naming what may be chosen.
    """
    changed = {**grant, "limits": {**grant["limits"], **(limits or {})}}
    if skills is not None:
        asked = set(manifest["skills"]) & set(backend.skills())
        if not skills or not set(skills) <= asked:
            raise ValueError(f"skills: choose one or more of {', '.join(sorted(asked))}; got {skills}")
        changed["skills"] = sorted(skills)
    if models is not None:
        offered = _offered(backend, chosen_models)
        if not set(models) <= set(offered):
            raise ValueError(f"models: choose among {', '.join(offered)}; got {models}")
        changed["models"] = list(models)
    return changed


def gate_grant(grant: dict[str, Any], budget: str) -> dict[str, Any]:
    """Return the grant as the gate reads it: the limits it knows and the session's budget."""
    known = {k: v for k, v in grant["limits"].items() if k in bringyourownagent.KNOWN_LIMITS}
    return {
        "byoa": "0.1-draft",
        "skills": grant["skills"],
        "budget": {"perSession": budget},
        "expiresAt": grant["expiresAt"],
        "limits": known,
    }


def gate_call(
    skill: str, provider: str, cost: str, measured: dict[str, float], params: dict[str, Any]
) -> dict[str, Any]:
    """Return a call as the gate reads it: its skill, time, provider, cost and measured input."""
    return {
        "skill": skill,
        "at": rfc3339(datetime.now(UTC)),
        "provider": provider,
        "estimatedCost": cost,
        "input": measured,
        "params": params,
    }


def counted(state: dict[str, Any], cost: str) -> dict[str, Any]:
    """Return the gate's state with a call of ``cost`` counted: spent so far, calls in the last minute."""
    amount, currency = cost.split()
    spent = state["spent"]
    total = Decimal(amount) + (Decimal(spent.split()[0]) if spent else Decimal(0))
    now = datetime.now(UTC)
    minute_ago = now - timedelta(minutes=1)
    recent = [t for t in state["callTimes"] if datetime.fromisoformat(t) > minute_ago]
    recent.append(rfc3339(now))
    return {"spent": f"{total} {currency}", "callTimes": recent}


def _offered(backend: SkillBackend, chosen_models: list[str] | None) -> list[str]:
    return list(chosen_models or backend.model_codes())


def rfc3339(moment: datetime) -> str:
    """Return ``moment`` as RFC 3339 with milliseconds, in UTC (``Z``)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
