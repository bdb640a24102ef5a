"""The append suite reports its ratios in wall and in CPU time, each paired within a round (ADR 0421).
Nothing here is timed: the figures' values are not asserted, only where they come from."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from jobctrl.testing.bench import append


def test_the_cpu_ratios_are_medians_of_per_round_cpu_ratios_beside_the_wall_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (wall rate, CPU rate) per round: the wall side swings 10x in round 1, the CPU side does not.
    rates = {
        "ours": [(50.0, 80.0), (5.0, 80.0), (50.0, 88.0)],
        "raw": [(100.0, 100.0), (10.0, 100.0), (100.0, 100.0)],
        "stock_es": [(25.0, 40.0), (2.5, 40.0), (25.0, 40.0)],
    }

    def measure(name: str) -> Any:
        def rates_of(_directory: Path, _size: int, _count: int, run: int) -> tuple[float, float]:
            return rates[name][run]

        return rates_of

    monkeypatch.setattr(append, "SUBJECTS", tuple(append._Subject(n, measure(n)) for n in rates))
    monkeypatch.setenv("JOBCTRL_BENCH_ROUNDS", "3")
    results: dict[str, Any] = {}
    append.run(results)
    for size in append.BATCH_SIZES:
        assert results[f"append.ratio_vs_raw.{size}"] == 0.5
        assert results[f"append.cpu_ratio_vs_raw.{size}"] == 0.8
        assert results[f"append.ours_per_s.{size}"] == 50.0
    assert results["append.ratio_vs_stock_es.100"] == 2.0
    assert results["append.cpu_ratio_vs_stock_es.100"] == 2.0


def test_a_small_real_run_reports_every_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_BENCH_EVENTS", "10")
    monkeypatch.setenv("JOBCTRL_BENCH_ROUNDS", "1")
    results: dict[str, Any] = {}
    append.run(results)
    for size in append.BATCH_SIZES:
        for key in (f"append.ratio_vs_raw.{size}", f"append.cpu_ratio_vs_raw.{size}"):
            assert results[key] > 0 and math.isfinite(results[key]), key
    assert results["append.cpu_ratio_vs_stock_es.100"] > 0
