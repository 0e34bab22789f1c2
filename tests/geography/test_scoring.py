"""The verdict: which country an answer names, compared with the expected one (sites/geography/scoring.py)."""

import pytest

from sites.geography import names
from sites.geography.game import prepared_names
from sites.geography.scoring import Outcome, edit_distance, judge, normalise


def verdict(answer, expected, language="en"):
    return judge(answer, expected, prepared_names(language))


@pytest.mark.parametrize(
    "answer",
    ["Peru", "peru", "PERU.", "Perú", "  Peru!  ", "It is Peru", "the Peru", "Peru?"],
)
def test_case_diacritics_punctuation_and_articles_do_not_matter(answer):
    assert verdict(answer, "PE").outcome is Outcome.CORRECT


@pytest.mark.parametrize(
    ("answer", "country"),
    [
        ("USA", "US"),
        ("U.S.A.", "US"),
        ("America", "US"),
        ("the United States of America", "US"),
        ("UK", "GB"),
        ("Britain", "GB"),
        ("Great Britain", "GB"),
        ("England", "GB"),
        ("Holland", "NL"),
        ("The Netherlands", "NL"),
        ("Czech Republic", "CZ"),
        ("Czechia", "CZ"),
        ("Russian Federation", "RU"),
        ("Burma", "MM"),
        ("Turkey", "TR"),
    ],
)
def test_english_aliases_score(answer, country):
    assert verdict(answer, country) == verdict(names.display_name(country, "en"), country)
    assert verdict(answer, country).outcome is Outcome.CORRECT


@pytest.mark.parametrize(
    ("answer", "country"),
    [
        ("Перу", "PE"),
        ("Соединенные Штаты", "US"),  # CLDR's own name
        ("США", "US"),
        ("Америка", "US"),
        ("Англия", "GB"),
        ("Голландия", "NL"),
        ("Чешская Республика", "CZ"),
        ("Белоруссия", "BY"),
        ("Российская Федерация", "RU"),
        ("Южная Корея", "KR"),
        ("USA", "US"),  # English is accepted in every language
    ],
)
def test_russian_names_from_cldr_and_aliases_score(answer, country):
    assert verdict(answer, country, "ru").outcome is Outcome.CORRECT


@pytest.mark.parametrize(
    ("answer", "country"),
    [
        ("Slovensko", "SK"),
        ("Spojené štáty", "US"),  # CLDR's own name
        ("Spojene staty", "US"),  # a transcript without diacritics
        ("Holandsko", "NL"),
        ("Česko", "CZ"),
        ("Česká republika", "CZ"),
        ("Veľká Británia", "GB"),
        ("Nemecko", "DE"),
        ("Rakúsko", "AT"),
    ],
)
def test_slovak_names_from_cldr_and_aliases_score(answer, country):
    assert verdict(answer, country, "sk").outcome is Outcome.CORRECT


def test_cldr_names_differ_per_language():
    assert names.display_name("DE", "en") == "Germany"
    assert names.display_name("DE", "ru") == "Германия"
    assert names.display_name("DE", "sk") == "Nemecko"


def test_another_language_in_its_own_script_is_not_accepted():
    # Russian names are not English ones: "Перу" is no answer in an English game.
    assert verdict("Перу", "PE", "en").outcome is Outcome.WRONG


@pytest.mark.parametrize(
    ("answer", "country", "outcome"),
    [
        ("Germani", "DE", Outcome.CORRECT),  # 7 letters: one edit allowed
        ("Argentyna", "AR", Outcome.CORRECT),
        ("Pero", "PE", Outcome.WRONG),  # 4 letters: no edit allowed
        ("Iraq", "IR", Outcome.WRONG),  # Iran and Iraq stay apart
        ("Austria", "AU", Outcome.WRONG),  # Australia is more than 2 edits away
        ("Slovenia", "SK", Outcome.WRONG),
    ],
)
def test_a_small_edit_distance_scaled_by_length_is_tolerated(answer, country, outcome):
    assert verdict(answer, country).outcome is outcome


def test_a_wrong_answer_is_wrong_and_says_which_country_it_named():
    result = verdict("Chile", "PE")
    assert result.outcome is Outcome.WRONG
    assert result.said == "CL"


def test_naming_two_countries_is_wrong_even_if_one_is_right():
    result = verdict("Peru or Chile", "PE")
    assert result.outcome is Outcome.WRONG
    assert result.said is None


def test_a_name_inside_a_longer_name_does_not_count_twice():
    assert verdict("Papua New Guinea", "PG").outcome is Outcome.CORRECT
    assert verdict("Papua New Guinea", "GN").outcome is Outcome.WRONG
    assert verdict("North Korea", "KP").outcome is Outcome.CORRECT


@pytest.mark.parametrize("answer", ["", "   ", "...", "?!", "the", " - "])
def test_an_empty_transcript_is_no_answer(answer):
    assert verdict(answer, "PE").outcome is Outcome.NO_ANSWER


@pytest.mark.parametrize(
    "answer",
    [
        '<img src=x onerror="alert(1)">',
        "<script>score = 10</script>",
        '{"verdict": "correct", "score": 10}',
        "correct",
    ],
)
def test_markup_or_a_claimed_verdict_is_just_wrong_text(answer):
    assert verdict(answer, "PE").outcome is Outcome.WRONG


def test_normalise_folds_to_plain_words():
    assert normalise("  The Côte d’Ivoire! ") == ("cote", "divoire")
    assert normalise("Guinea-Bissau") == ("guinea", "bissau")
    assert normalise("Ёлка Ľubľana") == ("елка", "lublana")


def test_edit_distance_stops_early_past_its_limit():
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("kitten", "sitting", 1) == 2
    assert edit_distance("a", "abcdef", 2) == 3
