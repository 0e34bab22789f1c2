"""
The pictures of a country the page shows: with the question, a larger globe with the
place circled (its clue, named by a digest); once the round is over, its flag and a globe
turned to it with the country marked. Static files drawn at build time from data packages
(frontend/scripts/build-geography.js). The page learns which country only with the
round's verdict, so the pictures' names never tell the answer early.
"""

import functools
import json
from pathlib import Path

from django.templatetags.static import static

CLUES_FILE = Path(__file__).with_name("clues.json")


def flag_url(country: str) -> str:
    """Return the static URL of a country's flag (ISO 3166-1 alpha-2)."""
    return static(f"geography/flags/{country.lower()}.svg")


def map_url(country: str) -> str:
    """Return the static URL of the globe that shows where a country is."""
    return static(f"geography/maps/{country.lower()}.svg")


def clue_url(country: str) -> str:
    """Return the static URL of the globe shown with a question about a country (its name tells nothing)."""
    return static("geography/" + _clues()[country])


@functools.cache
def _clues() -> dict[str, str]:
    with open(CLUES_FILE, encoding="utf-8") as source:
        clues: dict[str, str] = json.load(source)["clues"]
    return clues


def with_pictures(payload: dict) -> dict:
    """Return a verdict or progress payload with the URLs of the pictures of each country it names."""
    shown = dict(payload)
    if shown.get("country"):
        shown["flag"] = flag_url(shown["country"])
        shown["map"] = map_url(shown["country"])
    if shown.get("summary"):
        shown["summary"] = [{**row, "flag": flag_url(row["country"])} for row in shown["summary"]]
    return shown
