"""
Which vocabulary phrase a transcript is (testwallet.direct.phrases): texts folded
per script, the phrases spelled closest to a misheard name, and a phrase said
whole inside a longer transcript.
"""

import pytest

from testwallet.direct.phrases import Phrasebook, folded


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Rakúsko", "rakusko"),
        ("Côte d’Ivoire", "cote d ivoire"),
        ("Тёркс и Кайкос", "terks i kaikos"),
        ("Объединённые  Штаты!", "obedinennye shtaty"),
        ("Bosnia & Herzegovina.", "bosnia herzegovina"),
        ("ÅLAND   Islands", "aland islands"),
    ],
)
def test_a_text_is_compared_in_lower_case_latin_letters_without_marks_or_punctuation(text, expected):
    assert folded(text) == expected


def test_ye_with_diaeresis_and_ye_are_the_same_letter():
    assert folded("Тёркс") == folded("Теркс")


def test_a_misheard_name_is_closest_to_its_phrase():
    book = Phrasebook(["Дания", "Германия", "Гана", "Армения", "Гвинея"])
    assert book.closest(["Дермандия"], 1) == ["Германия"]


def test_a_name_written_in_latin_letters_is_close_to_its_cyrillic_phrase():
    book = Phrasebook(["Норвегия", "Германия", "Франция"])
    assert book.closest(["Germaniya"], 1) == ["Германия"]


def test_the_closest_phrase_of_any_transcript_counts_and_the_limit_holds():
    book = Phrasebook(["Peru", "Paraguay", "Panama", "Chile", "France"])
    assert set(book.closest(["Shilly", "Fronts"], 2)) == {"Chile", "France"}
    assert len(book.closest(["Peru"], 3)) == 3
    assert book.closest(["Peru"], 3)[0] == "Peru"


def test_a_phrase_said_whole_in_a_longer_transcript_is_found_as_spelled_in_the_vocabulary():
    book = Phrasebook(["Peru", "Côte d’Ivoire"])
    assert book.said("I think it's Peru, Peru.") == "Peru"
    assert book.said("cote d'ivoire") == "Côte d’Ivoire"


def test_the_longest_phrase_said_wins():
    book = Phrasebook(["Guinea", "Equatorial Guinea", "Guinea-Bissau"])
    assert book.said("Equatorial Guinea") == "Equatorial Guinea"
    assert book.said("Guinea Bissau") == "Guinea-Bissau"


def test_a_phrase_inside_a_longer_word_is_not_said():
    book = Phrasebook(["Niger", "Oman"])
    assert book.said("Nigeria") is None
    assert book.said("Romania") is None


def test_the_similarity_of_a_phrase_is_that_of_its_closest_text():
    book = Phrasebook(["Германия"])
    assert book.similarity("Германия", ["Germaniya", "Peru"]) == 1.0
    assert book.similarity("Германия", []) == 0.0


def test_a_phrase_given_twice_is_kept_once_in_its_first_place():
    assert Phrasebook(["Peru", "Chile", "Peru"]).phrases == ("Peru", "Chile")
