"""
``Choice``: a class attribute that holds one of a fixed set of values, such as what the visitor
does in the next approval window, and refuses a misspelt one when it is set, naming the values
it takes.
"""

from collections.abc import Callable, Sequence
from typing import Any, overload


class Choice[V]:
    """An attribute that holds one of a fixed set of answers, refusing a misspelt one at once."""

    def __init__(self, choices: Sequence[V], doc: str, kind: Callable[[Any], object] = str) -> None:
        self.choices, self.__doc__, self.kind = choices, doc, kind

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> "Choice[V]": ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...
    def __get__(self, instance: object, owner: type | None = None) -> "V | Choice[V]":
        if instance is None:
            return self
        value: V = instance.__dict__[self.name]
        return value

    def __set__(self, instance: object, choice: object) -> None:
        try:
            value = self.kind(choice)
        except ValueError:
            value = None
        if value not in self.choices:
            known = ", ".join(map(str, self.choices))
            raise ValueError(f"{self.name} is one of {known}; got {choice!r}.") from None
        instance.__dict__[self.name] = value
