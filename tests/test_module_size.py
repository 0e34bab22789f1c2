"""
A module stays within MOST_LINES lines, so that a newcomer reads one file as one concept: the
project's own Python and JavaScript, in the apps, the demos, the test wallet, the browser library,
the benchmarks, the deployment and the tests. Left out: what others wrote or a build made (the
virtual environment, node_modules, the bundled vendor code, the docs' build) and type declarations.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 600
SUFFIXES = {".py", ".js", ".mjs"}
#: Folders whose files are not the project's own writing.
NOT_OURS = {".venv", "node_modules", "vendor", "vendor-src", "_build", ".git", "__pycache__"}
OURS = (
    "byoa",
    "mcp_server",
    "testwallet",
    "visitor_ai",
    "sites",
    "frontend",
    "benchmarks",
    "deploy",
    "tests",
    "docs",
)


def modules() -> list[Path]:
    """Return the project's own modules."""
    found = []
    for top in OURS:
        for path in (ROOT / top).rglob("*"):
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and not NOT_OURS & set(path.relative_to(ROOT).parts)
            ):
                found.append(path)
    return found


def test_the_modules_are_found_where_the_project_keeps_them():
    found = {path.relative_to(ROOT).as_posix() for path in modules()}
    assert {"byoa/consumers.py", "frontend/testwallet/byoa.js", "benchmarks/byoa_calls.py"} <= found
    assert not any("node_modules" in path or "/vendor/" in path for path in found)


def test_every_module_of_the_project_stays_within_600_lines():
    longer = {
        path.relative_to(ROOT).as_posix(): count
        for path in modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert longer == {}, f"past {MOST_LINES} lines: split each by concept"


#: The framework a site installs: a module of it is read beside Channels' and Django's own.
FRAMEWORK = ("byoa", "mcp_server", "visitor_ai")
FRAMEWORK_MOST_LINES = 400
#: A module docstring says what the module is; why it is so goes on docs/explanation/.
DOCSTRING_MOST_LINES = 10


def test_every_module_of_the_framework_stays_within_400_lines():
    longer = {
        path.relative_to(ROOT).as_posix(): count
        for top in FRAMEWORK
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
        and (count := len(path.read_text(encoding="utf-8").splitlines())) > FRAMEWORK_MOST_LINES
    }
    assert longer == {}, f"past {FRAMEWORK_MOST_LINES} lines: split each by concept"


def test_a_module_docstring_of_the_framework_or_the_test_wallet_says_in_ten_lines_what_it_is():
    import ast

    longer = {}
    for top in (*FRAMEWORK, "testwallet"):
        for path in (ROOT / top).rglob("*.py"):
            docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=True)
            if docstring and len(docstring.splitlines()) > DOCSTRING_MOST_LINES:
                longer[path.relative_to(ROOT).as_posix()] = len(docstring.splitlines())
    assert longer == {}, "the design reasoning goes on docs/explanation/"
