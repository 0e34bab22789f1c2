"""
What the visitor allowed each site, and which sites they paused, in one record shared by the
wallet's two ways in: the extension's ``window.byoa`` (``testwallet.extension``) and the direct
link (``DirectWallet``). Sites are named by their page origin. ``save`` and ``load`` carry it in a
JSON file between processes, as the npm driver's ``Consents`` does. Needs no Django.
"""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Allowed", "Consents", "more_asked", "page_origin"]


@dataclass(frozen=True)
class Allowed:
    """One site's consent: the manifest the visitor read, the skills they ticked, "decide on my own"."""

    manifest: dict[str, Any]
    skills: list[str]
    on_its_own: bool = False


@dataclass
class Consents:
    """The visitor's consents and pauses, by site.

    specs/byoa-sites.md: "a site allowed one way is allowed the other way too"; "a site that asks
    for more later gets a new consent showing only the difference"; "A site the visitor paused is
    not reconnected". Give one ``Consents`` to both stand-ins to share it
    (``DirectWallet(..., consents=byoa_extension.consents)``).
    """

    sites: dict[str, Allowed] = field(default_factory=dict)
    paused: set[str] = field(default_factory=set)

    def allow(
        self, site: str, manifest: dict[str, Any], skills: list[str], *, on_its_own: bool = False
    ) -> None:
        """Record that the visitor allowed ``site`` this manifest, with these skills ticked."""
        self.sites[site] = Allowed(manifest, sorted(skills), on_its_own)

    def more(self, site: str, manifest: dict[str, Any]) -> list[str] | None:
        """Return what a new consent shows: None for a site never allowed (all of it), else only what is more."""
        allowed = self.sites.get(site)
        if allowed is None:
            return None
        return more_asked(manifest, allowed.manifest, allowed.skills)

    def pause(self, site: str) -> None:
        """Pause ``site``, as the visitor does in the wallet."""
        self.paused.add(site)

    def resume(self, site: str) -> None:
        """Resume a paused ``site``."""
        self.paused.discard(site)

    def as_json(self) -> dict[str, Any]:
        """Return the record as the npm driver's ``toJSON`` writes it."""
        return {
            "sites": {
                site: {"manifest": allowed.manifest, "skills": allowed.skills, "onItsOwn": allowed.on_its_own}
                for site, allowed in self.sites.items()
            },
            "paused": sorted(self.paused),
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path`` whole (never half-written), for the npm driver's ``Consents.load``."""
        path = Path(path)
        part = path.with_name(path.name + ".tmp")
        part.write_text(json.dumps(self.as_json(), indent=2) + "\n", encoding="utf-8")
        part.replace(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Consents":
        """Read a record ``save`` or the npm driver's ``save`` wrote; ValueError names what is wrong."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    @classmethod
    def from_json(cls, value: object) -> "Consents":
        """Return the record of a JSON value as ``as_json`` writes it; ValueError names what is wrong."""
        if not (
            isinstance(value, dict) and isinstance(value.get("sites"), dict) and _strings(value.get("paused"))
        ):
            raise ValueError(
                'consents are {"sites": {site: {"manifest", "skills", "onItsOwn"}}, "paused": [site, ...]}'
            )
        consents = cls(paused=set(value["paused"]))
        for site, allowed in value["sites"].items():
            manifest = allowed.get("manifest") if isinstance(allowed, dict) else None
            if not (
                isinstance(manifest, dict)
                and isinstance(manifest.get("skills"), dict)
                and isinstance(manifest.get("purpose"), dict)
                and _strings(allowed.get("skills"))
                and isinstance(allowed.get("onItsOwn"), bool)
            ):
                raise ValueError(
                    f"the consent of {json.dumps(site)} is "
                    '{"manifest": {...}, "skills": [...], "onItsOwn": true or false}'
                )
            consents.allow(site, manifest, allowed["skills"], on_its_own=allowed["onItsOwn"])
        return consents


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def more_asked(manifest: dict[str, Any], allowed: dict[str, Any], skills: list[str]) -> list[str]:
    """Return what ``manifest`` asks for beyond the ``allowed`` manifest and its ticked ``skills``, as text.

    More is any of: a skill outside those ticked, more models for a skill (or a models block where
    there was none), a limit raised, or a limit left out (no bound is looser than any bound).
    """
    more = [f"the skill {skill}" for skill in sorted(set(manifest["skills"]) - set(skills))]
    for skill, entry in manifest["skills"].items():
        block, was = entry.get("models"), allowed["skills"].get(skill, {}).get("models")
        if not isinstance(block, dict):
            continue
        if not isinstance(was, dict) or block.get("count", 1) > was.get("count", 1):
            before = was.get("count", 1) if isinstance(was, dict) else 0
            more.append(f"{block.get('count', 1)} models for {skill} (allowed {before})")
    limits, were = manifest["purpose"].get("limits") or {}, allowed["purpose"].get("limits") or {}
    for name, bound in sorted(were.items()):
        if name not in limits:
            more.append(f"no {name} (allowed {bound})")
        elif limits[name] > bound:
            more.append(f"{name} {limits[name]} (allowed {bound})")
    return more


def page_origin(endpoint: str) -> str:
    """Return the origin of the pages a wallet route serves: ``wss://h/byoa/ws`` is ``https://h``."""
    parts = urlsplit(endpoint)
    scheme = "https" if parts.scheme == "wss" else "http"
    default = 443 if scheme == "https" else 80
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    host = (parts.hostname or "").lower()
    return f"{scheme}://{f'[{host}]' if ':' in host else host}{port}"
