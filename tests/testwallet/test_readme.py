"""README.md's "Test your site in CI" shows the example tests that actually run, and `make test` runs each."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ci_section():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## Test your site in CI", 1)[1].split("\n## ", 1)[0]


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_readme_ci_example_is_the_tested_file():
    assert python_blocks(ci_section())[0] == (ROOT / "tests" / "testwallet" / "test_ci_example.py").read_text(
        encoding="utf-8"
    )


def test_readme_sync_excerpt_is_part_of_the_sync_example():
    sync_example = (ROOT / "examples" / "pytest-sync" / "test_bookshop_sync.py").read_text(encoding="utf-8")
    assert python_blocks(ci_section())[1] in sync_example


def test_readme_browser_agent_example_is_the_tested_file():
    example = (ROOT / "tests" / "testwallet" / "test_browser_agent_example.py").read_text(encoding="utf-8")
    assert python_blocks(ci_section())[-1] == example


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
        assert f"({path})" in section, f"README's 'Test your site in CI' does not link {path}"
        assert (ROOT / path).exists(), path
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")

    def recipe(target):
        return makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]

    assert "test-main test-examples test-frontend" in recipe("test")
    assert "$(BIN)/python -m pytest $(PYTEST_XDIST) --durations=10 $(PYTEST_ARGS)" in recipe(
        "test-main"
    )  # the async example
    assert "$(BIN)/python -m pytest examples/pytest-sync" in recipe("test-examples")
    assert "$(BIN)/python examples/script/bookshop_check.py" in recipe("test-examples")
    assert "cd frontend && npm run e2e" in recipe("test-frontend")
    scripts = json.loads((ROOT / "frontend" / "package.json").read_text(encoding="utf-8"))["scripts"]
    assert scripts["e2e"] == "playwright test && node e2e/bookshop-script.js"
    assert "testDir: './e2e'" in (ROOT / "frontend" / "playwright.config.js").read_text(encoding="utf-8")
