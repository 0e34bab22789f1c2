"""
"How this page works", for every demo: the integration code shown on a page is
read, at request time, from the very static file the page runs, between two
marker lines, so the snippet can never drift from the code.
"""

from django.contrib.staticfiles import finders

START = "// --- how this page works: start"
END = "// --- how this page works: end"


class SnippetMissing(LookupError):
    """Raised when the file or its marker lines are missing."""


def integration_snippet(static_path):
    """Return the lines between the markers in the static file, dedented as written."""
    path = finders.find(static_path)
    if path is None:
        raise SnippetMissing(f"No static file {static_path!r}.")
    with open(path, encoding="utf-8") as source:
        lines = source.read().splitlines()
    try:
        first, last = lines.index(START), lines.index(END)
    except ValueError:
        raise SnippetMissing(f"{static_path} lacks the lines {START!r} and {END!r}.") from None
    return "\n".join(lines[first + 1 : last])
