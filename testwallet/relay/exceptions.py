"""The relay's errors.

RelayError
└── UpstreamError
"""


class RelayError(Exception):
    """Raised when the relay cannot answer; `status` and `message` are what the page gets."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class UpstreamError(RelayError):
    """Raised when the model server cannot be reached, refuses the request or takes too long."""
