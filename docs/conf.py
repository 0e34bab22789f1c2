"""Sphinx configuration of the Visitor AI documentation (`make docs`)."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "docs" / "_ext")]
# autodoc imports the apps, which need settings: the framework's apps alone (_ext/docs_settings.py).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "docs_settings")
import django  # noqa: E402

django.setup()

project = "Visitor AI"
author = "The Visitor AI authors"
copyright = "2026, " + author

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx_autodoc_typehints",
    "visitor_ai_docs",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
# docs/README.md is the folder's front page on GitHub; the site's own is index.md.
exclude_patterns = ["_build", "_ext", "README.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = "Visitor AI"
html_static_path: list[str] = []
# The built pages open from the file system: no server, no search index fetched over HTTP needed.
html_copy_source = False

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
typehints_fully_qualified = False
always_document_param_types = False

# -n checks every internal reference; the names of other projects have no inventory here
# (the build is offline), so their references are not ours to check.
nitpicky = True
OURS = ("byoa", "mcp_server", "visitor_ai", "testwallet")
nitpick_ignore_regex = [
    (r"py:.*", r"(?!(" + "|".join(OURS) + r")\.).*"),
]
nitpick_ignore_regex += [
    # Private modules and names (a leading underscore): public signatures may name them, but they
    # have no page of their own.
    (r"py:.*", r".*\._\w+.*"),
]
nitpick_ignore = [
    # Named by public signatures but exported by no __all__ yet: their own pages come with the
    # public faces of issues 37 (byoa's call outcomes) and 38 (the test wallet's).
    ("py:class", "byoa.pairing.describe.Line"),
    ("py:class", "byoa.models.Pairing"),
    # What build_server returns: the SDK's MCPServer with the argument checks, no API of its own.
    ("py:class", "mcp_server.server.SiteMCPServer"),
    ("py:class", "testwallet.aiwallet.records.WalletLink"),
    ("py:class", "testwallet.aiwallet.binding.PageBinding"),
    ("py:class", "testwallet.aiwallet.records.ErrorEvent"),
    ("py:class", "testwallet.aiwallet.records.ResultEvent"),
    ("py:class", "testwallet.aiwallet.records.StartEvent"),
    ("py:class", "testwallet.aiwallet.records.TextEvent"),
]
