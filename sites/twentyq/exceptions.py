"""
The game's errors, each with a stable ``code`` and a message for the visitor::

    Exception
    └── GameError                 status 409: not now (no game, game over, wrong turn, late)
        ├── BadInput              status 400: the page sent something the game does not take
        └── UnusableReply         status 422: the model's text is not a usable move or answer

A view turns each into ``{"error": code, "message": message, "game": ...}``;
the game is never changed by a request that raises one.
"""


class GameError(Exception):
    """Raised when a request does not fit the game's current state."""

    status = 409

    def __init__(self, code, message):
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


class BadInput(GameError):
    """Raised when a request's body has a missing, malformed or out-of-range value."""

    status = 400


class UnusableReply(GameError):
    """Raised when a model's reply is empty, too long, markup, or not a move or choice."""

    status = 422
