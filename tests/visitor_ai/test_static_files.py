"""The browser gets only what runs in a browser: no static file of visitor_ai is a Node or Playwright module."""

import os
import re
from pathlib import Path

import visitor_ai

STATIC = Path(visitor_ai.__file__).resolve().parent / "static"
STUBS = Path(__file__).resolve().parents[2] / "testwallet" / "stubs"
#: An import of Node's own modules or of Playwright, static (`from '…'`, a bare `import '…'`) or dynamic.
NODE_ONLY = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(?:node:[^'"]*|@playwright/test|playwright(?:-core)?)\1"""
)


def scripts_under(folder: Path) -> list[Path]:
    """Return every .js/.mjs file under the folder, following its links to frontend/."""
    return [
        Path(root) / name
        for root, _dirs, names in os.walk(folder, followlinks=True)
        for name in names
        if name.endswith((".js", ".mjs"))
    ]


def test_static_files_are_found_through_the_links_to_frontend():
    found = {path.relative_to(STATIC).as_posix() for path in scripts_under(STATIC)}
    assert {"byoa/index.js", "aiconnect/index.js"} <= found
    assert not any(name.startswith("testwallet/") for name in found)  # the relay's, DEBUG only


def test_no_static_file_imports_node_or_playwright():
    shipped = scripts_under(STATIC) + scripts_under(STUBS)
    node_only = [
        str(path.relative_to(path.parents[1]))
        for path in shipped
        if NODE_ONLY.search(path.read_text("utf-8"))
    ]
    assert node_only == [], "Node-only modules are served to browsers; move them to frontend/playwright/"


def test_the_pattern_sees_each_way_of_importing_node_or_playwright():
    for line in (
        "import { fileURLToPath } from 'node:url';",
        'import { test } from "@playwright/test";',
        "const { chromium } = await import('playwright');",
        "import 'node:process';",
        "const fs = require('node:fs');",
    ):
        assert NODE_ONLY.search(line), line
    assert not NODE_ONLY.search(
        "// the Playwright binding, see node: docs\nimport { a } from './playwright-ish.js';"
    )
