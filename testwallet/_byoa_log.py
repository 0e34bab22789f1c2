"""
What the test BYOA extension logs of a page: each ``window.byoa.request`` and ``call`` as a
record (what the page asked, what the stand-in measured, what the page got), and the wallet's
answer to a request in byoa.js's words (``Decision``).
"""

from dataclasses import dataclass
from typing import Any, Literal

#: The wallet's answer to a request (byoa.js's WalletAnswer): ``quiet`` shows no window at all.
Decision = Literal["allow", "decline", "block", "no-answer", "no-wallet", "quiet"]


@dataclass
class RequestRecord:
    """One ``window.byoa.request(manifest)``."""

    origin: str
    activated: bool  # called with user activation (a click)
    manifest: object
    valid: bool
    errors: list[dict[str, Any]]  # the manifest's errors, as the bringyourownagent library reports them
    warnings: list[dict[str, Any]]
    decision: Decision | Literal[""] = ""  # the wallet's answer ("" until it answered)
    on_its_own: bool = False  # answered by "decide on my own"
    more: list[str] | None = None  # what the window showed as more than was allowed (None: all of it)
    grant: dict[str, Any] | None = None  # what the page got
    reason: str = ""  # "granted", or why the page got null
    done: bool = False


@dataclass
class CallRecord:
    """One ``window.byoa.call(grantId, skill, input, params)``."""

    origin: str
    grant_id: object
    skill: object
    # measured by the stub: {"audio": {"mime", "bytes", "clipSeconds"}} or {"messages", "textChars"}
    summary: dict[str, Any] | None
    params: dict[str, Any] | None  # as the model got them (maxTokens capped by maxAnswerTokens)
    input: dict[str, Any] | None = None  # the whole input; None for a call the stub refused
    refused: str | None = None  # why the stub refused it without asking a model
    ok: bool | None = None  # what the page got
    output: dict[str, Any] | None = None
    done: bool = False
