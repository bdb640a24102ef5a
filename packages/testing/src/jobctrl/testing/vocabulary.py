"""Narrow a word a scenario reads to one of a closed vocabulary (a ``Literal`` type).

A feature's step receives plain text (``"{stage}"``); the event it builds wants the vocabulary's
``Literal`` (``Stage``, ``CohortKind``, ...).  ``one_of(STAGES, stage)`` returns the matching member,
typed as the vocabulary, or fails the scenario with a clear error naming the allowed words, so a
misspelt feature line is a typed error rather than an unchecked string in an event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

W = TypeVar("W", bound=str)


def one_of(vocabulary: Iterable[W], word: str) -> W:
    """The member of ``vocabulary`` equal to ``word``; ``ValueError`` listing the members if none is."""
    members = tuple(vocabulary)
    for member in members:
        if member == word:
            return member
    raise ValueError(f"{word!r} is not one of {', '.join(members)}")
