"""
The test wallet's public face: the top-level modules of the `testwallet` package are what a site
uses, and nothing of this repository's own test plumbing (which lives under tests/). Each public
module's names are pinned in tests/test_readme.py (PUBLIC).
"""

import pkgutil
import re
from pathlib import Path

import testwallet

#: What a site uses, by product.
PUBLIC_FACE = {
    # The pytest plugin and its fixtures, the stand-ins' drivers (Python; Node's are frontend/playwright).
    "testwallet.plugin",
    "testwallet.aiwallet",
    "testwallet.extension",
    "testwallet.languagemodel",
    "testwallet.webmcp",
    "testwallet.sync_api",
    "testwallet.server",
    "testwallet.setup_cache",  # the daphne_server fixture's set-up cache (docs: howto/ci)
    "testwallet.setup_commands",  # the servers' set-up commands in one process, without the checks
    "testwallet.preflight",
    "testwallet.chromium",  # Debian's Chromium for a site's Playwright suite (the plugin's launch settings)
    "testwallet.speech",  # spoken clips for a voice page's tests (docs: howto/voice)
    # The headless direct-link wallet and its backends.
    "testwallet.direct",
    # Recorded answers of a real model, replayed in CI (docs: howto/recorded-answers).
    "testwallet.cassette",
    # Trying pages by hand: the relay app (and {% testwallet_scripts %}), the transcription server,
    # the project served for other test runners.
    "testwallet.relay",
    "testwallet.transcribe",
    "testwallet.serve",
}


def test_top_level_modules_are_the_public_face():
    found = {
        module.name
        for module in pkgutil.iter_modules(testwallet.__path__, "testwallet.")
        if not module.name.rpartition(".")[2].startswith("_")
    }
    assert found == PUBLIC_FACE


def test_the_package_never_imports_this_repositorys_suite():
    root = Path(testwallet.__file__).parent
    importing = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if re.search(r"^\s*(from|import) tests\b", path.read_text(), flags=re.M)
    ]
    assert importing == []
