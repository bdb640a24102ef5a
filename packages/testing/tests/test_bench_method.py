"""The bench method (ADR 0230): subjects interleave A B, B A, …; figures are medians; ratios are
medians of per-round ratios.  Deterministic subjects only: nothing here is timed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from jobctrl.testing.bench.method import interleave, interleave_async, load_average


def test_subjects_alternate_order_round_by_round_and_ratios_pair_within_a_round() -> None:
    calls: list[tuple[str, int]] = []

    def subject(name: str, values: list[float]) -> Callable[[int], float]:
        def measure(r: int) -> float:
            calls.append((name, r))
            return values[r]

        return measure

    # Round 1 is "loaded": both sides drop 10x, the paired ratio stays 0.5 in every round.
    samples = interleave(
        {"ours": subject("ours", [50, 5, 50]), "raw": subject("raw", [100, 10, 100])}, rounds=3
    )
    assert calls == [("ours", 0), ("raw", 0), ("raw", 1), ("ours", 1), ("ours", 2), ("raw", 2)]
    assert samples.median("ours") == 50
    assert samples.ratio("ours", "raw") == 0.5
    # The ratio of medians would agree here; a median of per-round ratios resists one bad round.
    skewed = interleave({"a": lambda r: [1, 1, 9][r], "b": lambda r: [2, 2, 2][r]}, rounds=3)
    assert skewed.ratio("a", "b") == 0.5


@pytest.mark.asyncio
async def test_async_subjects_interleave_in_the_same_order_one_at_a_time() -> None:
    calls: list[tuple[str, int]] = []
    running: list[str] = []

    def subject(name: str, value: float) -> Callable[[int], Awaitable[float]]:
        async def measure(r: int) -> float:
            assert not running, f"{name} started while {running} ran"
            running.append(name)
            await asyncio.sleep(0)  # yield: a concurrent subject would start here
            calls.append((name, r))
            running.remove(name)
            return value * (r + 1)

        return measure

    samples = await interleave_async({"ours": subject("ours", 1), "raw": subject("raw", 4)}, rounds=3)
    assert calls == [("ours", 0), ("raw", 0), ("raw", 1), ("ours", 1), ("ours", 2), ("raw", 2)]
    assert samples.by_subject["ours"] == [1, 2, 3] and samples.ratio("ours", "raw") == 0.25
    with pytest.raises(ValueError, match="at least one round"):
        await interleave_async({"a": subject("a", 1)}, rounds=0)


def test_interleave_rejects_an_empty_plan() -> None:
    with pytest.raises(ValueError, match="at least one subject"):
        interleave({}, rounds=3)
    with pytest.raises(ValueError, match="at least one round"):
        interleave({"a": lambda r: 1.0}, rounds=0)


def test_the_load_average_is_three_non_negative_figures() -> None:
    load = load_average()
    assert len(load) == 3 and all(x >= 0 for x in load)
