"""The projections suite says where its full collections fall: inside which subject's measured samples
(ADR 0435).  Nothing here is timed: only which collections are counted, and for whom."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from jobctrl.testing.bench import projections


def _collecting(full: int, young: int) -> projections.Sample:
    for _ in range(young):
        gc.collect(0)
    for _ in range(full):
        gc.collect()
    return 1, 1.0, 1.0


def test_a_sample_counts_the_full_collections_of_its_own_subject_only() -> None:
    collections = projections.FullCollections()
    cpu_rates: dict[str, list[float]] = {"read": [], "rebuild": []}
    subjects = {
        "read": projections._measured("read", lambda: _collecting(full=2, young=3), cpu_rates, collections),
        "rebuild": projections._measured(
            "rebuild", lambda: _collecting(full=0, young=5), cpu_rates, collections
        ),
    }
    gc.callbacks.append(collections)
    try:
        for round_ in range(3):
            for subject in subjects.values():
                subject(round_)
        gc.collect()  # outside every sample
    finally:
        gc.callbacks.remove(collections)
    # Each sample's own two; not the collection `_measured` runs before each sample, not the young
    # ones, not the one after the rounds.
    assert collections.count == {"read": 6}
    assert collections.cpu_s["read"] >= 0 and "rebuild" not in collections.cpu_s
    assert cpu_rates == {"read": [1.0] * 3, "rebuild": [1.0] * 3}


def test_a_small_real_run_reports_each_subjects_full_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_BENCH_EVENTS", "400")
    monkeypatch.setenv("JOBCTRL_BENCH_ROUNDS", "1")
    real = projections._read_decode

    def read_decode(*args: Any) -> projections.Sample:
        gc.collect()  # one full collection inside the read's measured sample
        return real(*args)

    monkeypatch.setattr(projections, "_read_decode", read_decode)
    results: dict[str, Any] = {}
    started = len(gc.callbacks)
    projections.run(results)
    assert len(gc.callbacks) == started  # the suite's counter is gone with it
    # The warm-up pass collected too, but it is not a measured sample.
    assert results["read.gc_full_per_sample"] >= 1
    for name in ("read", "rebuild", "follow"):
        assert results[f"{name}.gc_full_per_sample"] >= 0
        assert results[f"{name}.gc_full_cpu_ms_per_sample"] >= 0
