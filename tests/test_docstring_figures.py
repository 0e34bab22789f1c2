"""
Measured figures live in the benchmarks' output and docs/explanation/performance.md, not in the
framework's docstrings and comments (issue 36): at most MOST_FIGURES are left in byoa, mcp_server and
visitor_ai, each in a docstring or comment block that names the benchmark printing it.

A measured figure is a number with a unit of time (µs, us, ms, ns), of CPU (CPU-s, CPU seconds,
s of CPU), a percentage, "N commands per call", or an amount of measured memory: KiB, MiB, GiB or kB
said to be about that much ("~3.5 KiB") or per something ("3.5 KiB per call", "2 MiB of RSS"). Limits
and timeouts ("4 MB frames", "120 s codes", "every 30 s", "one frame of 16 KiB") are not: the spec's
and settings' own units (MB, s) and bare sizes are left out on purpose.
"""

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("byoa", "mcp_server", "visitor_ai")
MOST_FIGURES = 3

_NUMBER = r"\d+(?:[.,]\d+)*"
FIGURE = re.compile(
    rf"(?<![\w.]){_NUMBER}(?:\s*(?:-|–|->|→|to)\s*{_NUMBER})*\s*"
    r"(?:µs|us|ms|ns|CPU[-\s]s(?:econds)?|s\s+of\s+CPU|seconds\s+of\s+CPU|%"
    r"|(?:Redis\s+)?commands\s+(?:per|a|each)\s+(?:call|request|send|receive))(?![\w])"
    # Memory: about so much, or so much per something, or of RSS / memory.
    rf"|(?:~|\babout\s+){_NUMBER}\s*(?:KiB|MiB|GiB|kB)\b"
    rf"|(?<![\w.]){_NUMBER}\s*(?:KiB|MiB|GiB|kB)\s+(?:per|a|an|each|of\s+(?:RSS|memory))\b"
)


@dataclass(frozen=True)
class Figure:
    path: str
    line: int
    text: str
    block: str  # the docstring or comment block it is in

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _docstrings(tree: ast.Module) -> list[tuple[int, str]]:
    """Return (first line, text) of the module's, classes' and functions' docstrings."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.append((first.value.lineno, first.value.value))
    return found


def _comment_blocks(source: str) -> list[tuple[int, str]]:
    """Return (first line, text) of each run of comments on consecutive lines, the #s taken off."""
    blocks: list[tuple[int, list[str]]] = []
    last = -2
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        line = token.start[0]
        text = token.string.lstrip("#").strip()
        if line == last + 1 and blocks:
            blocks[-1][1].append(text)
        else:
            blocks.append((line, [text]))
        last = line
    return [(line, "\n".join(lines)) for line, lines in blocks]


def figures_in(source: str, path: str = "<text>") -> list[Figure]:
    """Return the measured figures in the docstrings and comments of a module's source."""
    found = []
    texts = [*_docstrings(ast.parse(source)), *_comment_blocks(source)]
    for first_line, text in texts:
        for match in FIGURE.finditer(text):
            line = first_line + text.count("\n", 0, match.start())
            found.append(Figure(path, line, " ".join(match.group(0).split()), text))
    return sorted(found, key=lambda figure: (figure.path, figure.line))


def framework_figures() -> list[Figure]:
    found = []
    for package in PACKAGES:
        for module in sorted((ROOT / package).rglob("*.py")):
            path = str(module.relative_to(ROOT))
            found.extend(figures_in(module.read_text(encoding="utf-8"), path))
    return found


def test_the_framework_quotes_at_most_three_measured_figures():
    found = framework_figures()
    listing = "\n".join(map(str, found))
    assert len(found) <= MOST_FIGURES, (
        f"{len(found)} measured figures in the docstrings and comments of {', '.join(PACKAGES)} "
        f"(at most {MOST_FIGURES}; move the rest to docs/explanation/performance.md):\n{listing}"
    )


def test_each_figure_left_names_the_benchmark_that_prints_it():
    unnamed = [figure for figure in framework_figures() if "benchmarks/" not in figure.block]
    assert not unnamed, "figures whose docstring or comment names no benchmarks/...py:\n" + "\n".join(
        map(str, unnamed)
    )


def test_measured_figures_are_found_in_docstrings_and_comments_across_lines():
    source = '''
"""About 2.9 ms of CPU per call, of which Redis does 25-40 us; 2.0 commands
per call, and a leak of ~3.5 KiB."""


def f():
    """A migrate 1.6 -> 1.0 CPU-s, 250 µs a request, 0.28 s of CPU a launch."""
    # channels-redis 8.2 ms [7.6-8.4] at W = 1; 12% of the
    # request's time; 2 MiB of RSS, 1.5 KiB per idle wallet
    return "5 ms in a string is code, not a docstring"
'''
    found = [(figure.line, figure.text) for figure in figures_in(source)]
    assert found == [
        (2, "2.9 ms"),
        (2, "25-40 us"),
        (2, "2.0 commands per call"),
        (3, "~3.5 KiB"),
        (7, "1.6 -> 1.0 CPU-s"),
        (7, "250 µs"),
        (7, "0.28 s of CPU"),
        (8, "8.2 ms"),
        (8, "12%"),
        (9, "2 MiB of RSS"),
        (9, "1.5 KiB per"),
    ]


def test_limits_and_timeouts_are_not_measured_figures():
    source = '''
"""Frames of up to 4 MB; codes live 120 s, a hello waits 10 s; wallets ping every 30 s."""
# daphne's default is 1 MB; at most 16 threads, W = 10 wallets, HTTP/1.1, Django 5.2.
# One frame of 16 KiB before the hello, 64 KiB in all, then two 4 MiB frames.
'''
    assert figures_in(source) == []
