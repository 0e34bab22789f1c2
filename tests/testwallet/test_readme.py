"""
The docs' "Test your site in CI" (docs/howto/ci.md) shows the example tests that actually
run, and `make test` runs each.
"""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


HOWTO = ROOT / "docs" / "howto"


def ci_section():
    return (HOWTO / "ci.md").read_text(encoding="utf-8")


def included(page):
    """Return the files a docs page shows, written out in its blocks (tests/test_docs.py finds each in its file)."""
    text = (HOWTO / page).read_text(encoding="utf-8")
    return re.findall(r"<!-- tested: tests/test_docs.py finds it in (\S+) -->", text)


def test_the_ci_page_shows_the_tested_example_files():
    shown = included("ci.md")
    assert "tests/testwallet/test_ci_example.py" in shown
    assert "examples/pytest-sync/test_bookshop_sync.py" in shown


def test_the_webmcp_page_shows_the_browser_agent_example_file():
    assert "tests/testwallet/test_browser_agent_example.py" in included("webmcp.md")


def test_each_example_the_readme_names_exists_and_make_test_runs_it():
    section = ci_section()
    examples = [
        "tests/testwallet/test_ci_example.py",
        "examples/pytest-sync/",
        "frontend/e2e/bookshop.spec.js",
        "frontend/playwright.config.js",
        "examples/script/bookshop_check.py",
        "frontend/e2e/bookshop-script.js",
        "frontend/e2e/webmcp.spec.js",
    ]
    for path in examples:
        assert f"`{path}`" in section, f"docs/howto/ci.md does not name {path}"
        assert (ROOT / path).exists(), path
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")

    def recipe(target):
        return makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]

    assert {"test-main", "test-examples", "test-frontend"} <= set(recipe("test").split())
    assert "$(BIN)/python -m pytest $(PYTEST_XDIST) --durations=10 $(PYTEST_ARGS)" in recipe(
        "test-main"
    )  # the async example
    assert "$(BIN)/python -m pytest examples/pytest-sync" in recipe("test-examples")
    assert "$(BIN)/python examples/script/bookshop_check.py" in recipe("test-examples")
    assert "cd frontend && npm run e2e" in recipe("test-frontend")
    scripts = json.loads((ROOT / "frontend" / "package.json").read_text(encoding="utf-8"))["scripts"]
    assert scripts["e2e"] == "playwright test && node e2e/bookshop-script.js"
    assert "testDir: './e2e'" in (ROOT / "frontend" / "playwright.config.js").read_text(encoding="utf-8")
