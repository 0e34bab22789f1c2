"""
The questions' facts (places.json): capitals and landmarks, each with its
country and its name in every answer language, and the question each one
asks in that language.
"""

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from sites.geography.exceptions import UnknownPlace

PLACES_FILE = Path(__file__).with_name("places.json")

# The question of each kind, per language; {place} is the place's name in that language.
QUESTIONS = {
    "capital": {
        "en": "Which country has the capital {place}?",
        "ru": "Столица какой страны — {place}?",
        "sk": "Ktorá krajina má hlavné mesto {place}?",
    },
    "landmark": {
        "en": "In which country is {place}?",
        "ru": "В какой стране находится {place}?",
        "sk": "V ktorej krajine je {place}?",
    },
}


@dataclass(frozen=True)
class Place:
    key: str  # "capital:PE", "landmark:PE:Machu Picchu": stable across restarts, kept in sessions
    kind: str  # "capital" or "landmark"
    country: str  # ISO 3166-1 alpha-2: the answer
    names: dict  # {language: the place's name}

    def question(self, language):
        """Return the question about this place, in a language."""
        return QUESTIONS[self.kind][language].format(place=self.names[language])


@functools.cache
def all_places():
    """Return {key: Place} of every place in places.json."""
    with open(PLACES_FILE, encoding="utf-8") as source:
        data = json.load(source)
    found = {}
    for row in data["capitals"]:
        found[f"capital:{row['country']}"] = Place(
            f"capital:{row['country']}", "capital", row["country"], row["city"]
        )
    for row in data["landmarks"]:
        key = f"landmark:{row['country']}:{row['name']['en']}"
        found[key] = Place(key, "landmark", row["country"], row["name"])
    return found


def get(key):
    """Return the Place of a question key."""
    try:
        return all_places()[key]
    except (KeyError, TypeError):
        raise UnknownPlace(f"No place {key!r} in {PLACES_FILE.name}.") from None
