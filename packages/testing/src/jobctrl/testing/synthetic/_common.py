"""Shared pieces of the synthetic log's stories."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import msgspec

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.events import (
    Stage,
)

START = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


Emitted = tuple[DomainEvent, str, str | None, str | None]  # event, stream, workflow id, run id


_enc = msgspec.json.Encoder()


_STAGES: tuple[tuple[Stage, int], ...] = (
    ("enrich", 5),
    ("score", 3),
    ("tailor", 5),
    ("cover", 5),
    ("apply", 3),
)


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def tick(self, rng: random.Random) -> str:
        self.now += timedelta(milliseconds=rng.randint(1, 900))
        return isoformat(self.now)


def _interleave(rng: random.Random, stories: list[Iterator[Emitted]]) -> Iterator[Emitted]:
    active = list(stories)
    while active:
        i = rng.randrange(len(active))
        try:
            yield next(active[i])
        except StopIteration:
            active[i] = active[-1]
            active.pop()
