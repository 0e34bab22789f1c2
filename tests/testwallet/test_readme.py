"""README.md's "Test your site in CI" shows the example test that actually runs."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_ci_example_is_the_tested_file():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Test your site in CI", 1)[1]
    shown = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown == (ROOT / "tests" / "testwallet" / "test_ci_example.py").read_text(encoding="utf-8")
