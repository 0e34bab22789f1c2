"""The catalog file: enough things, every fact present, and every thing tellable from the others."""

import json
from collections import Counter

import pytest

from sites.twentyq import catalog as catalog_module

RAW = json.loads(catalog_module.CATALOG_PATH.read_text(encoding="utf-8"))
CATALOG = catalog_module.load()
CATEGORIES = {"animal", "plant", "food", "object", "vehicle", "place", "nature"}


def test_the_catalog_has_at_least_150_things_of_several_kinds():
    assert len(RAW["things"]) >= 150
    kinds = Counter(thing["category"] for thing in RAW["things"])
    assert set(kinds) == CATEGORIES
    assert all(kinds[kind] >= 5 for kind in CATEGORIES), kinds


def test_every_thing_has_every_attribute_as_a_boolean():
    keys = [attribute["key"] for attribute in RAW["attributes"]]
    assert len(keys) == len(set(keys)) >= 40
    for thing in RAW["things"]:
        assert list(thing["attributes"]) == keys, thing["name"]
        assert all(type(value) is bool for value in thing["attributes"].values()), thing["name"]


def test_every_attribute_question_is_a_distinct_yes_no_question_that_splits_the_catalog():
    questions = [attribute["question"] for attribute in RAW["attributes"]]
    assert len(set(questions)) == len(questions)
    assert all(question.endswith("?") and len(question) <= 100 for question in questions)
    for attribute in RAW["attributes"]:
        yes = sum(thing["attributes"][attribute["key"]] for thing in RAW["things"])
        assert 0 < yes < len(RAW["things"]), attribute["key"]


def test_no_two_things_have_the_same_answers_to_every_question():
    vectors = Counter(tuple(thing["attributes"].values()) for thing in RAW["things"])
    same = [
        [t["name"] for t in RAW["things"] if tuple(t["attributes"].values()) == v]
        for v, n in vectors.items()
        if n > 1
    ]
    assert same == []


def test_no_spelling_names_two_things():
    spellings = Counter(spelling for thing in CATALOG.things for spelling in thing.names())
    assert [spelling for spelling, count in spellings.items() if count > 1] == []


def test_every_thing_has_a_known_category_an_article_and_plain_names():
    for thing in RAW["things"]:
        assert thing["category"] in CATEGORIES
        assert thing["article"] in ("a", "an", "the", "")
        assert set(thing) == {"name", "article", "aliases", "plurals", "category", "attributes"}
        for word in (thing["name"], *thing["aliases"], *thing["plurals"]):
            assert word == word.strip() and 0 < len(word) <= 40 and "<" not in word, word


def test_kinds_agree_with_the_kind_questions():
    for thing in CATALOG.things:
        facts = thing.attributes
        assert facts["animal"] == (thing.category == "animal"), thing.name
        assert facts["plant"] == (thing.category == "plant"), thing.name
        assert facts["food"] == (thing.category == "food"), thing.name
        assert facts["place"] == (thing.category == "place"), thing.name
        assert facts["vehicle"] == (thing.category == "vehicle"), thing.name
        assert facts["alive"] == (thing.category in ("animal", "plant")), thing.name
        if facts["four_legs"]:
            assert facts["legs"], thing.name
        for kind in ("mammal", "bird", "fish", "bug", "reptile"):
            if facts[kind]:
                assert facts["animal"], thing.name
        if facts["country"] or facts["city"] or facts["building"]:
            assert facts["place"], thing.name
        assert not (facts["big"] and facts["small"]), thing.name
        assert not (facts["hot"] and facts["cold"]), thing.name


@pytest.mark.parametrize(
    "guess, name",
    [
        ("giraffe", "giraffe"),
        ("A Giraffe", "giraffe"),
        ("giraffes", "giraffe"),
        ("Is it a cat?", "cat"),
        ("kitten", "cat"),
        ("the Eiffel Tower", "Eiffel Tower"),
        ("hippos", "hippopotamus"),
        ("mice", "mouse"),
        ("Wolves!", "wolf"),
        ("USA", "United States"),
        ("  strawberries ", "strawberry"),
        ("crème brûlée", None),
        ("it's an octopus", "octopus"),
        ("", None),
    ],
)
def test_a_guess_finds_the_thing_by_name_alias_or_plural(guess, name):
    found = CATALOG.find(guess)
    assert (found.name if found else None) == name


@pytest.mark.parametrize(
    "name, key, value",
    [
        ("whale", "mammal", True),
        ("whale", "fish", False),
        ("shark", "fish", True),
        ("penguin", "flies", False),
        ("penguin", "bird", True),
        ("bat", "flies", True),
        ("bat", "mammal", True),
        ("spider", "bug", True),
        ("frog", "reptile", True),
        ("tomato", "red", True),
        ("banana", "yellow", True),
        ("lemon", "sweet", False),
        ("cheese", "dairy", True),
        ("bread", "grain", True),
        ("coffee", "drink", True),
        ("Paris", "europe", True),
        ("Paris", "city", True),
        ("Tokyo", "asia", True),
        ("Egypt", "africa", True),
        ("Russia", "asia", True),
        ("Russia", "europe", True),
        ("Australia", "english", True),
        ("Colosseum", "ancient", True),
        ("Eiffel Tower", "ancient", False),
        ("Mount Everest", "natural", True),
        ("Antarctica", "cold", True),
        ("Sahara", "hot", True),
        ("knife", "blade", True),
        ("television", "screen", True),
        ("refrigerator", "electric", True),
        ("bicycle", "engine", False),
        ("car", "wheels", True),
        ("airplane", "flies", True),
        ("boat", "water", True),
        ("chair", "four_legs", True),
        ("piano", "music", True),
        ("sun", "space", True),
        ("moon", "night", True),
        ("snail", "shell", True),
        ("elephant", "huge", True),
        ("mouse", "small", True),
    ],
)
def test_well_known_facts_are_right(name, key, value):
    assert CATALOG.thing(name).attributes[key] is value
