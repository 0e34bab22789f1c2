"""
The geography game's errors. Those a request can cause carry a stable ``code``
the page reads and a message for the visitor; a view answers
``{"error": code, "message": message}``::

    ValueError
    └── Refused                 a request the game does not take (code, message)
        ├── AnswerRefused       an answer that cannot be judged
        ├── BadAnswer           a body that is not the form or JSON it claims to be
        ├── ClipRefused         a clip the wallet would not take
        └── UnknownLanguage     a language the game is not played in
    LookupError
    └── UnknownPlace            a question key that names no place
"""


class Refused(ValueError):
    """Raised when a request holds something the game does not take; ``code`` names it for the page."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class AnswerRefused(Refused):
    """Raised when an answer cannot be judged (too long, or the game is over)."""


class BadAnswer(Refused):
    """Raised when a request's body cannot be read as the form or JSON it claims to be."""


class ClipRefused(Refused):
    """Raised when a clip is not one the wallet would take; the message says what was expected."""


class UnknownLanguage(Refused):
    """Raised when a language is not one of the answer languages, which the message lists."""

    def __init__(self, language, languages):
        super().__init__(
            "language-invalid", f"{language!r} is not an answer language; use one of {', '.join(languages)}."
        )


class UnknownPlace(LookupError):
    """Raised when a question key names no place in places.json."""
