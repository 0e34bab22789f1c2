"""
Minify scripts with esbuild, each with its source map, for ``collectstatic``.

Each file is minified alone, not bundled: the browser keeps loading the same modules by the same
relative imports, which the storage then points at the hashed names (visitor_ai/storage.py).
esbuild is one native binary from npm (``npm install esbuild``; here ``make frontend-deps``),
which needs Node.js to start. Why esbuild: docs/explanation/modules.md.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .exceptions import MinifierFailed, MinifierNotFound

__all__ = ["find_esbuild", "minify_scripts", "scripts_in"]

# The browsers that run ES modules with private class fields and `??=` (our sources use both).
TARGET = "es2022"


def find_esbuild(configured: str | os.PathLike[str] | None) -> str:
    """Return the esbuild to run: ``configured``, else the one on PATH; raise MinifierNotFound."""
    candidate = str(configured) if configured else shutil.which("esbuild")
    if candidate and (Path(candidate).is_file() or shutil.which(candidate)):
        return candidate
    where = f"at {configured}" if configured else "on PATH"
    raise MinifierNotFound(
        f"collectstatic minifies scripts with esbuild, and there is no esbuild {where}. "
        "Install Node.js 20+ and run `npm ci` in frontend/ (`make frontend-deps`), or "
        '`npm install esbuild` and set STORAGES["staticfiles"]["OPTIONS"]["esbuild"] to its '
        "node_modules/.bin/esbuild (visitor_ai/storage.py)."
    )


def minify_scripts(esbuild: str, sources: dict[str, bytes], destination: Path) -> list[str]:
    """
    Write each script of ``sources`` (name -> readable source) minified into ``destination``
    under its name, with ``<name>.map`` beside it; return the names of the maps written.
    """
    if not sources:
        return []
    with tempfile.TemporaryDirectory(prefix="visitor-ai-minify-") as work:
        readable = Path(work) / "in"
        for name, source in sources.items():
            path = readable / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(source)
        command = [
            esbuild,
            *sorted(sources),
            f"--outdir={destination}",
            f"--outbase={readable}",
            "--minify",
            "--sourcemap",
            f"--target={TARGET}",
            "--charset=utf8",
            "--log-level=warning",
            "--allow-overwrite",
        ]
        try:
            done = subprocess.run(command, cwd=readable, capture_output=True, text=True, timeout=120)
        except OSError as error:  # e.g. the npm shim's `node` is missing
            raise MinifierFailed(f"{esbuild} could not start ({error}); is Node.js installed?") from None
        if done.returncode != 0:
            raise MinifierFailed(f"esbuild could not minify the scripts:\n{done.stderr.strip()}")
    maps = [f"{name}.map" for name in sources]
    for name in maps:
        _name_sources(destination / name, posixpath.basename(name[: -len(".map")]))
    return maps


def _name_sources(map_path: Path, source_name: str) -> None:
    """Name the map's one source by the script's own file name, not the temporary path it was read from."""
    source_map = json.loads(map_path.read_text(encoding="utf-8"))
    source_map["sources"] = [source_name for _ in source_map.get("sources", [])]
    map_path.write_text(json.dumps(source_map, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def scripts_in(names: Iterable[str], skip: Iterable[str]) -> list[str]:
    """Return the ``.js`` names among ``names`` that no pattern of ``skip`` matches."""
    from django.contrib.staticfiles.utils import matches_patterns

    patterns = list(skip)
    return [name for name in names if name.endswith(".js") and not matches_patterns(name, patterns)]
