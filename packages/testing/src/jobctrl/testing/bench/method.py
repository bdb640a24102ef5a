"""The bench method every suite shares (ADR 0230): a figure and its baseline are measured in
interleaved rounds (A B, B A, A B, …), each figure is the median of its samples and each ratio the
median of the per-round ratios, so a load change during a run moves both sides of a ratio alike.

A subject is a callable taking the round number and returning one sample (a rate, a latency: any
number whose ratio the suite reports).  ``JOBCTRL_BENCH_ROUNDS`` (default 5) sets the round count of
every suite that does not take its own."""

from __future__ import annotations

import os
import statistics
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

Subject = Callable[[int], float]
AsyncSubject = Callable[[int], Awaitable[float]]


def rounds(default: int = 5) -> int:
    """The round count: ``JOBCTRL_BENCH_ROUNDS`` if set, else the suite's default (at least 1)."""
    return max(1, int(os.environ.get("JOBCTRL_BENCH_ROUNDS", default)))


def load_average() -> tuple[float, float, float]:
    """The host's 1, 5 and 15 minute load averages (zeros where the platform has none)."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return (0.0, 0.0, 0.0)
    return (round(one, 2), round(five, 2), round(fifteen, 2))


@dataclass(frozen=True)
class Samples:
    """Per-subject samples of interleaved rounds; index ``r`` of every list is round ``r``."""

    by_subject: Mapping[str, list[float]]

    def median(self, name: str) -> float:
        return statistics.median(self.by_subject[name])

    def ratio(self, numerator: str, denominator: str) -> float:
        """The median of the per-round ratios ``numerator / denominator`` (paired under one load)."""
        pairs = zip(self.by_subject[numerator], self.by_subject[denominator], strict=True)
        return statistics.median(n / d if d else float("inf") for n, d in pairs)


def _plan(names: Sequence[str], rounds: int) -> list[tuple[int, str]]:
    """(round, subject) in run order: the order reversed on every other round."""
    if not names:
        raise ValueError("interleave needs at least one subject")
    if rounds < 1:
        raise ValueError(f"interleave needs at least one round, got {rounds}")
    return [(r, name) for r in range(rounds) for name in (names if r % 2 == 0 else names[::-1])]


def interleave(subjects: Mapping[str, Subject], rounds: int) -> Samples:
    """Run every subject once per round, the order reversed on every other round (A B, B A, …), so a
    subject is not always the one measured first (warm caches) or last (a rising load)."""
    samples: dict[str, list[float]] = {name: [] for name in subjects}
    for r, name in _plan(list(subjects), rounds):
        samples[name].append(float(subjects[name](r)))
    return Samples(samples)


async def interleave_async(subjects: Mapping[str, AsyncSubject], rounds: int) -> Samples:
    """``interleave`` for subjects that run on the caller's event loop (one awaited at a time)."""
    samples: dict[str, list[float]] = {name: [] for name in subjects}
    for r, name in _plan(list(subjects), rounds):
        samples[name].append(float(await subjects[name](r)))
    return Samples(samples)
