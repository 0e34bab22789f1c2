"""
The events the test AI Wallet's answers are made of, as wallet-provider.md words them: a
result, an error, and a provider's failure in the words of the wallet's error table (an
account's refusal with its status, or 502 when the provider could not be reached).
"""

from typing import Any

from testwallet.aiwallet.records import ErrorEvent, ProviderError, ProviderUnreachable, ResultEvent


def result_event(result: Any) -> ResultEvent:
    return {"kind": "result", "result": result}


def error_event(status: int, message: str) -> ErrorEvent:
    return {"kind": "error", "status": status, "message": message}


def failure_event(account: str | None, error: ProviderError | ProviderUnreachable) -> ErrorEvent:
    """Return the error event of a provider failure, worded as the wallet's error table says."""
    if isinstance(error, ProviderUnreachable):
        return error_event(502, error.reason)
    return error_event(error.status, f"{account} answered {error.status}: {error.detail}")
