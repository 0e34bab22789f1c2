"""
The things the site knows (``catalog.json``): names, aliases and plurals, and a
yes/no value for every attribute question. Own mode asks and answers from it,
the site picks its secrets from it, and a visitor's guess is compared with it.
"""

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

CATALOG_PATH = Path(__file__).with_name("catalog.json")

#: Words a guess may start with that are not part of the name ("Is it a cat?").
_LEADING = re.compile(r"^(?:(?:is it|it is|it's|its|i think|i guess|my guess is|maybe|a|an|the|some)\s+)+")


@dataclass(frozen=True)
class Attribute:
    key: str
    question: str


@dataclass(frozen=True)
class Thing:
    name: str
    article: str  # "a", "an", "the" or "" ("Is it a cat?", "Is it the Nile?", "Is it rice?")
    aliases: tuple
    plurals: tuple
    category: str
    attributes: dict  # key -> bool, every attribute

    def called(self):
        """Return the name with its article, as a sentence uses it."""
        return f"{self.article} {self.name}" if self.article else self.name

    def names(self):
        """Return the normalised spellings that mean this thing."""
        return {normalise(word) for word in (self.name, *self.aliases, *self.plurals)}


@dataclass(frozen=True)
class Catalog:
    attributes: tuple
    things: tuple

    @functools.cached_property
    def attribute_keys(self):
        return tuple(attribute.key for attribute in self.attributes)

    @functools.cached_property
    def _by_key(self):
        return {attribute.key: attribute for attribute in self.attributes}

    @functools.cached_property
    def _by_name(self):
        return {thing.name: thing for thing in self.things}

    @functools.cached_property
    def _by_spelling(self):
        return {spelling: thing for thing in self.things for spelling in thing.names()}

    def column(self, key):
        """Return the values of one attribute for every thing, in catalog order."""
        return self._columns[key]

    @functools.cached_property
    def _columns(self):
        return {key: tuple(thing.attributes[key] for thing in self.things) for key in self.attribute_keys}

    def attribute(self, key):
        """Return the Attribute with this key, or None."""
        return self._by_key.get(key) if isinstance(key, str) else None

    def thing(self, name):
        """Return the Thing with this exact name, or None."""
        return self._by_name.get(name)

    def find(self, guess):
        """Return the Thing a visitor's or a model's guess names, or None."""
        return self._by_spelling.get(normalise(guess))


def normalise(text):
    """Return text lower-cased, without accents, punctuation, articles or "is it"."""
    text = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^a-z0-9']+", " ", text).strip()
    return _LEADING.sub("", text).strip()


@functools.cache
def load(path=CATALOG_PATH):
    """Return the Catalog in the JSON file, read once per process."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    attributes = tuple(Attribute(entry["key"], entry["question"]) for entry in data["attributes"])
    things = tuple(
        Thing(
            name=entry["name"],
            article=entry["article"],
            aliases=tuple(entry["aliases"]),
            plurals=tuple(entry["plurals"]),
            category=entry["category"],
            attributes=dict(entry["attributes"]),
        )
        for entry in data["things"]
    )
    return Catalog(attributes, things)
