"""The game's data: places.json's facts, CLDR's names through babel, and aliases.json."""

import json
from collections import Counter

import pytest

from sites.geography import names, places
from sites.geography.exceptions import UnknownLanguage, UnknownPlace
from sites.geography.game import prepared_names
from sites.geography.scoring import Outcome, judge, normalise

PLACES = list(places.all_places().values())


def test_there_are_at_least_sixty_capitals_and_some_landmarks():
    kinds = Counter(place.kind for place in PLACES)
    assert kinds["capital"] >= 60
    assert kinds["landmark"] >= 10


def test_every_place_is_named_in_every_answer_language_and_asks_a_question():
    for place in PLACES:
        assert set(place.names) == set(names.LANGUAGES), place
        for language in names.LANGUAGES:
            assert place.names[language].strip() == place.names[language] != ""
            question = place.question(language)
            assert place.names[language] in question and question.endswith("?")


def test_every_answer_is_a_country_cldr_names_in_every_language():
    for place in PLACES:
        for language in names.LANGUAGES:
            assert names.display_name(place.country, language), place


def test_a_capital_appears_once_per_country():
    capitals = Counter(place.country for place in PLACES if place.kind == "capital")
    assert [country for country, count in capitals.items() if count > 1] == []


@pytest.mark.parametrize(
    ("country", "city"),
    [
        ("PE", "Lima"),
        ("AU", "Canberra"),
        ("CA", "Ottawa"),
        ("TR", "Ankara"),
        ("KZ", "Astana"),
        ("NG", "Abuja"),
    ],
)
def test_capitals_that_people_often_get_wrong_are_the_right_ones(country, city):
    assert places.get(f"capital:{country}").names["en"] == city


@pytest.mark.parametrize("language", names.LANGUAGES)
def test_each_answer_countrys_own_name_scores_in_its_language(language):
    # No answer of the game is ambiguous: CLDR's name names exactly that country.
    for country in {place.country for place in PLACES}:
        verdict = judge(names.display_name(country, language), country, prepared_names(language))
        assert verdict.outcome is Outcome.CORRECT, (country, language, verdict)


@pytest.mark.parametrize("language", names.LANGUAGES)
def test_no_alias_names_two_countries(language):
    table = names.accepted_names(language)
    owners = {}
    for code, accepted in table.items():
        for name in accepted:
            owners.setdefault(normalise(name), set()).add(code)
    with open(names.ALIASES_FILE, encoding="utf-8") as source:
        aliases = json.load(source)[language]
    for code, listed in aliases.items():
        for alias in listed:
            assert owners[normalise(alias)] == {code}, (alias, owners[normalise(alias)])


def test_alias_codes_are_countries_cldr_knows():
    with open(names.ALIASES_FILE, encoding="utf-8") as source:
        aliases = json.load(source)
    for language in names.LANGUAGES:
        assert set(aliases[language]) <= set(names.accepted_names(language))


def test_an_unknown_language_is_refused_with_the_choices():
    with pytest.raises(UnknownLanguage, match="en, ru, sk"):
        names.accepted_names("de")


def test_an_unknown_place_key_is_refused():
    with pytest.raises(UnknownPlace):
        places.get("capital:XX")
