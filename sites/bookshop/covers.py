"""
Generated book covers: an SVG per book, drawn from its title and author, so the
shop shows covers without fetching any image from another host.

Titles are data, not markup: every piece of text goes through xml escaping.
"""

import hashlib
import textwrap
from xml.sax.saxutils import escape

# (background, accent) pairs with enough contrast for white text.
PALETTE = [
    ("#2f4858", "#f6ae2d"),
    ("#5b2a86", "#f2c14e"),
    ("#1b4332", "#95d5b2"),
    ("#7f1d1d", "#fcd34d"),
    ("#1e3a8a", "#93c5fd"),
    ("#3f3d56", "#ff9f80"),
    ("#134e4a", "#fde68a"),
    ("#4a2c2a", "#e9c46a"),
]


def _lines(text, width, limit):
    lines = textwrap.wrap(text, width=width)[:limit]
    return lines or [""]


# The title's room inside the frame (x 20 to 216), and a bold serif's letters at 24 px, roughly:
# capitals and m/w wide, i/l/t and punctuation narrow. Estimated high, so a line near the edge is squeezed.
TITLE_WIDTH = 190
NARROW, WIDE = set("ijlrtf.,;:'!| -"), set("mwMW")


def _fit(line):
    """Return the attributes that squeeze a line into the frame when it may run past it, else ''."""
    estimate = sum(8 if c in NARROW else 22 if c in WIDE else 18 if c.isupper() else 14 for c in line)
    if estimate <= TITLE_WIDTH:
        return ""
    return f' textLength="{TITLE_WIDTH}" lengthAdjust="spacingAndGlyphs"'


def cover_svg(book):
    """Return the SVG cover of a book as text."""
    digest = hashlib.sha256(book.slug.encode()).digest()
    background, accent = PALETTE[digest[0] % len(PALETTE)]
    title = "".join(
        f'<text x="20" y="{70 + 30 * i}" font-size="24" font-weight="700"{_fit(line)}>{escape(line)}</text>'
        for i, line in enumerate(_lines(book.title, 12, 5))
    )
    author = escape(_lines(book.author, 22, 1)[0])
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 360" role="img" '
        f'aria-label="{escape(book.title, {chr(34): "&quot;"})}">'
        f'<rect width="240" height="360" fill="{background}"/>'
        f'<rect x="12" y="12" width="216" height="336" fill="none" stroke="{accent}" stroke-width="3"/>'
        f'<g fill="#fff" font-family="Georgia, serif">{title}</g>'
        f'<text x="20" y="320" fill="{accent}" font-family="system-ui, sans-serif" font-size="16">{author}</text>'
        "</svg>"
    )
