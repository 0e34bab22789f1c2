"""
Country names, per answer language: CLDR's (through babel) plus the aliases
people say (aliases.json). English names are accepted in every language,
since a Slovak or Russian speaker may well say "USA".
"""

import functools
import json
import re
from pathlib import Path

from babel import Locale
from django.utils.translation import get_language_info

from sites.geography.exceptions import UnknownLanguage

#: The languages a visitor may answer in: the manifest's audio.transcribe languages.
LANGUAGES = ("en", "ru", "sk")
ALIASES_FILE = Path(__file__).with_name("aliases.json")

# CLDR territory codes that are not countries (the EU, the UN, "unknown region").
_NOT_COUNTRIES = {"EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"}


def _check(language):
    if language not in LANGUAGES:
        raise UnknownLanguage(language, LANGUAGES)


def language_name(language):
    """Return a language's name in that language ("Slovenčina"), for the language picker."""
    _check(language)
    return get_language_info(language)["name_local"]


def display_name(country, language):
    """Return CLDR's name of a country (ISO 3166-1 alpha-2) in a language."""
    _check(language)
    return Locale(language).territories[country]


@functools.cache
def _aliases():
    with open(ALIASES_FILE, encoding="utf-8") as source:
        return json.load(source)


def _variants(name):
    # CLDR writes some names with a qualifier: "Myanmar (Burma)", "Bosnia & Herzegovina".
    # The name without it counts too. The qualifier alone does not: in "Виргинские о-ва
    # (США)" it names another country (aliases.json has the ones people say, e.g. Burma).
    found = {name, name.replace("&", "and")}
    bracketed = re.fullmatch(r"(.+?)\s*\(.+\)", name)
    if bracketed:
        found.add(bracketed.group(1))
    return found


@functools.cache
def _table(language):
    names = {}
    for code, name in Locale(language).territories.items():
        if len(code) == 2 and code.isalpha() and code not in _NOT_COUNTRIES:
            names.setdefault(code, set()).update(_variants(name))
    for code, aliases in _aliases().get(language, {}).items():
        names.setdefault(code, set()).update(aliases)
    return names


@functools.cache
def accepted_names(language):
    """Return {country: frozenset of names} accepted in a language (its own and English)."""
    _check(language)
    table = {code: set(names) for code, names in _table(language).items()}
    if language != "en":
        for code, names in _table("en").items():
            table.setdefault(code, set()).update(names)
    return {code: frozenset(names) for code, names in table.items()}
