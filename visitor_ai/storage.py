"""
The static files storage for production: minified, content-hashed, compressed.

WhiteNoise's ``CompressedManifestStaticFilesStorage`` that also minifies every script with
esbuild (``visitor_ai._minify``), points the imports between modules at the hashed names, and
stops ``collectstatic`` with ``UnhashedImport`` where a module still imports a plain name. Name
it in ``STORAGES["staticfiles"]["BACKEND"]``; its ``OPTIONS`` take ``esbuild`` (the path to run;
default: the one on PATH) and ``minify`` (``False`` keeps the rest without esbuild). How to set
it up: docs/howto/static-files.md; why: docs/explanation/modules.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import django
from whitenoise.storage import CompressedManifestStaticFilesStorage

from ._minify import find_esbuild, minify_scripts, scripts_in
from .exceptions import UnhashedImport

__all__ = ["MinifiedManifestStaticFilesStorage"]

# A module's AudioWorklet (or worker) by a URL relative to the module: frontend/byoa/recorder.js.
RELATIVE_URL = r"""(?P<matched>new URL\(["'](?P<url>\.{1,2}/[^"']*?)["'],\s*import\.meta\.url\))"""
# After minification there are no comments left to skip: this matches nothing.
NOTHING = re.compile(r"(?!)")
# Django 6.1 takes a third item, what to skip (else CSS comments); 5.2 and 6.0 take two.
_NEW_URL = (RELATIVE_URL, """new URL("%(url)s",import.meta.url)""", NOTHING)
# Every way a module names another by a relative path, as esbuild writes it.
SPECIFIERS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)["'](?P<url>\.{1,2}/[^"']+)["']""")
HASHED = re.compile(r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$")


# ignore[misc]: mypy refuses a subclass of Any (strict), and WhiteNoise's classes are Any to it:
# WhiteNoise ships no types (see pyproject's whitenoise.* override).
class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """WhiteNoise's compressed manifest storage that minifies scripts and hashes module imports."""

    support_js_module_import_aggregation = True
    # One pass per level of imports at worst (page -> ways -> byoa -> ...): Django's 5 is tight.
    max_post_process_passes = 12
    patterns = CompressedManifestStaticFilesStorage.patterns + (
        ("*.js", (_NEW_URL if django.VERSION >= (6, 1) else _NEW_URL[:2],)),
    )

    def __init__(
        self,
        *args: Any,
        esbuild: str | os.PathLike[str] | None = None,
        minify: bool = True,
        minify_skip: Iterable[str] = ("*.min.js",),
        **kwargs: Any,
    ) -> None:
        self.esbuild = esbuild
        self.minify = minify
        self.minify_skip = tuple(minify_skip)
        super().__init__(*args, **kwargs)

    def stored_name(self, name: str) -> str:
        """Return the hashed name; the plain one while collectstatic has not run at all."""
        # No manifest: tests rendering pages in-process, a server started before its first
        # collectstatic. WhiteNoise then serves the apps' own files (WHITENOISE_USE_FINDERS).
        if not self.hashed_files and not self.manifest_storage.exists(self.manifest_name):
            return name
        # Django's ManifestFilesMixin.stored_name, which WhiteNoise does not override, returns the name.
        hashed: str = super().stored_name(name)
        return hashed

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any) -> Iterator[Any]:
        """Minify the collected scripts, then hash, rewrite and compress as WhiteNoise does."""
        if not dry_run and self.minify:
            paths = self._minify(paths)
        yield from super().post_process(paths, dry_run=dry_run, **options)
        if not dry_run and self.minify:
            self._check_imports()

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        """Compress what pages fetch; source maps (read only by developer tools) stay as they are."""
        # WhiteNoise's compress_files yields (name, compressed name) pairs.
        compressed: Iterator[tuple[str, str]] = super().compress_files(
            [path for path in paths if not path.endswith(".map")]
        )
        return compressed

    def _minify(self, paths: dict[str, Any]) -> dict[str, Any]:
        """Overwrite the collected scripts with minified ones; return ``paths`` reading those."""
        names = scripts_in(paths, self.minify_skip)
        sources = {}
        for name in names:
            storage, path = paths[name]
            with storage.open(path) as readable:
                sources[name] = readable.read()
        maps = minify_scripts(find_esbuild(self.esbuild), sources, Path(self.location))
        # Django hashes "the original file" from its finder's storage: point it at our output.
        return {**paths, **{name: (self, name) for name in [*names, *maps]}}

    def _check_imports(self) -> None:
        """Raise UnhashedImport when a collected script still names a module by its plain name."""
        problems = []
        for hashed in sorted(set(self.hashed_files.values())):
            if not hashed.endswith(".js"):
                continue
            with self.open(hashed) as script:
                text = script.read().decode("utf-8", errors="replace")
            problems += [
                f"{hashed}: {found['url']}"
                for found in SPECIFIERS.finditer(text)
                if not HASHED.search(found["url"])
            ]
        if problems:
            raise UnhashedImport(
                "These modules still import files by their plain names, so a page would load them "
                "twice (rewrite the import as a plain relative path in quotes):\n  " + "\n  ".join(problems)
            )
