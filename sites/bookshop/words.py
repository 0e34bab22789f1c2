"""
The words a bookshop search matches by: each word of a book's text and of a query
reduced to its Snowball English stem (snowballstemmer, the stemmer Sphinx's search
uses), so that "dragons" finds "dragon" and "funnier" finds "funny". The few words
that say nothing about a book ("a", "book", "something") are left out of a query.
"""

import re

import snowballstemmer

# Letters and digits, an apostrophe inside a word kept with it ("philosopher's" is one word).
WORD = re.compile(r"\w+(?:['’]\w+)*")

# Words a visitor types around what they want ("a book about dragons"): they narrow nothing.
# fmt: off
FILLER = frozenset((
    "a", "an", "and", "the", "of", "for", "about", "with", "by", "in", "on", "to", "me", "my",
    "some", "something", "anything", "book", "books", "novel", "novels", "read",
))
# fmt: on

_stemmer = snowballstemmer.stemmer("english")


def words(text: str) -> list[str]:
    """Return the words of a text, lower-cased."""
    return WORD.findall(text.lower())


def stems(text: str) -> frozenset[str]:
    """Return the stems of every word of a text."""
    return frozenset(_stemmer.stemWords(words(text)))


def terms(query: str) -> list[tuple[str, str]]:
    """Return each word a query asks for with its stem, without its filler words (none for a query of filler)."""
    asked = [word for word in words(query) if word not in FILLER]
    return list(zip(asked, _stemmer.stemWords(asked), strict=True))
