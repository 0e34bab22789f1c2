"""
What the test BYOA extension answers byoa.js: a request's answer (``RequestAnswer``) and a
call's (``CallAnswer``), and the outputs a test scripts for a call (an output object, one with
its receipt, or ``FAILED``), each checked against the skill table's output fields when given.
"""

from collections.abc import Awaitable, Callable
from typing import Any, NotRequired, TypedDict

from testwallet._byoa_log import CallRecord, Decision
from testwallet._call_checks import SKILLS

#: The Python type of each output field type the table names.
OUTPUT_TYPES: dict[str, type] = {"string": str}


class RequestAnswer(TypedDict):
    """What the test answers byoa.js for one ``request()`` (its WalletAnswer)."""

    decision: Decision
    onItsOwn: NotRequired[bool]  # "decide on my own": no window, no click needed
    skills: NotRequired[list[str] | None]  # the skills ticked (None: all offered)
    models: NotRequired[int | None]  # how many text models ticked (None: as many as asked)
    available: NotRequired[dict[str, Any]]  # {"skills": [...], "textModels": n}: what the wallet can run
    expiresInSeconds: NotRequired[float]


class CallAnswer(TypedDict, total=False):
    """What the test answers byoa.js for one ``call()`` (its ModelAnswer): output, failure or default."""

    ok: bool
    output: dict[str, Any]
    receipt: dict[str, Any]
    default: bool


class Failed:
    """The type of ``testwallet.extension.FAILED``, its one value: a scripted output that fails the call."""

    def __repr__(self) -> str:
        return "FAILED"


#: A scripted output: an output object (or ``{"output": {...}, "receipt": {...}}``), or FAILED.
Output = dict[str, Any] | Failed
#: A function that answers calls of a skill: an Output, or an awaitable of one.
AnswerFunction = Callable[[CallRecord], Output | Awaitable[Output]]


def check_output(skill: object, output: object) -> None:
    """Raise TypeError unless `output` is something a call of `skill` can answer with."""
    if isinstance(output, Failed):  # FAILED, the only one
        return
    if not isinstance(output, dict):
        raise TypeError(
            f"an output of {skill} must be a dict such as {{'text': '...'}} or FAILED; got {output!r}"
        )
    body = output.get("output", output)
    shape = SKILLS[skill]["output"] if isinstance(skill, str) and skill in SKILLS else {}
    if not (
        isinstance(body, dict) and all(isinstance(body.get(k), OUTPUT_TYPES[t]) for k, t in shape.items())
    ):
        fields = ", ".join(f"'{k}': <{t}>" for k, t in shape.items())
        raise TypeError(f"an output of {skill} is {{{fields}}} (specs/byoa-sites.md); got {output!r}")
