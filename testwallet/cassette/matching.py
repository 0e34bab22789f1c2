"""
How a request is told from a recorded one: the JSON paths where they differ, and
the nearest recorded request (the fewest differences) for the error of a miss.
"""

import json
from collections.abc import Iterator, Sequence
from typing import Any

#: How much of a differing value an error shows.
EXCERPT_CHARS = 80
#: How many differences an error lists.
SHOWN = 3


def differences(recorded: Any, asked: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Yield (path, recorded value, asked value) for each place where two JSON values differ."""
    if isinstance(recorded, dict) and isinstance(asked, dict):
        for key in sorted(set(recorded) | set(asked)):
            where = f"{path}.{key}" if path else key
            if key not in recorded or key not in asked:
                yield where, recorded.get(key, _ABSENT), asked.get(key, _ABSENT)
            else:
                yield from differences(recorded[key], asked[key], where)
    elif isinstance(recorded, list) and isinstance(asked, list):
        for index in range(max(len(recorded), len(asked))):
            where = f"{path}[{index}]"
            if index >= len(recorded) or index >= len(asked):
                yield (
                    where,
                    recorded[index] if index < len(recorded) else _ABSENT,
                    asked[index] if index < len(asked) else _ABSENT,
                )
            else:
                yield from differences(recorded[index], asked[index], where)
    elif recorded != asked or type(recorded) is not type(asked):
        yield path or "(the request)", recorded, asked


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()


def excerpt(value: Any) -> str:
    """Return a short text of a JSON value for an error message."""
    text = repr(value) if isinstance(value, _Absent) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"


def nearest(
    asked: dict[str, Any], recorded: Sequence[dict[str, Any]]
) -> tuple[int, list[tuple[str, Any, Any]]] | None:
    """Return the index of the recorded request nearest to `asked` and how they differ, or None."""
    best: tuple[int, list[tuple[str, Any, Any]]] | None = None
    for index, candidate in enumerate(recorded):
        found = list(differences(candidate, asked))
        if best is None or len(found) < len(best[1]):
            best = (index, found)
    return best


def describe(found: list[tuple[str, Any, Any]]) -> str:
    """Return the differences as an error says them: 'path: recorded X, asked Y; ...'."""
    shown = [f"{path}: recorded {excerpt(old)}, asked {excerpt(new)}" for path, old, new in found[:SHOWN]]
    more = len(found) - SHOWN
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")
