"""The append suite reports its ratios in wall and in CPU time, each paired within a round (ADR 0421).
Nothing here is timed: the figures' values are not asserted, only where they come from."""

from __future__ import annotations

import math
import sqlite3
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
        "raw_encoding": [(62.5, 88.0), (6.25, 88.0), (62.5, 88.0)],
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
        # The second floor (ADR 0441) beside the first, which is unchanged.
        assert results[f"append.ratio_vs_raw_encoding.{size}"] == 0.8
        assert results[f"append.cpu_ratio_vs_raw_encoding.{size}"] == pytest.approx(0.909, abs=1e-3)
    assert results["append.ratio_vs_stock_es.100"] == 2.0
    assert results["append.cpu_ratio_vs_stock_es.100"] == 2.0


def test_a_small_real_run_reports_every_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_BENCH_EVENTS", "10")
    monkeypatch.setenv("JOBCTRL_BENCH_ROUNDS", "1")
    results: dict[str, Any] = {}
    append.run(results)
    for size in append.BATCH_SIZES:
        for key in (
            f"append.ratio_vs_raw.{size}",
            f"append.cpu_ratio_vs_raw.{size}",
            f"append.ratio_vs_raw_encoding.{size}",
            f"append.cpu_ratio_vs_raw_encoding.{size}",
        ):
            assert results[key] > 0 and math.isfinite(results[key]), key
    assert results["append.cpu_ratio_vs_stock_es.100"] > 0


def test_the_second_floor_stores_what_the_first_stores_and_every_subject_shares_the_durability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``raw_encoding`` builds and encodes the rows ``raw`` is handed ready-made: the same table
    contents for the same events; and a subject whose connection does not write WAL with
    ``synchronous=NORMAL`` fails the suite instead of giving a figure (ADR 0441)."""
    same = append._events(4, "same")  # both subjects get these very events
    monkeypatch.setattr(append, "_events", lambda total, _tag: same[:total])
    append._raw(tmp_path, 2, 4, 0)
    append._raw_encoding(tmp_path, 2, 4, 0)
    columns = "event_id, stream_id, stream_version, event_type, schema_version, tenant_id, job_id,"
    columns += " occurred_at, payload, metadata"
    tables = []
    for name in ("raw-2-0.db", "raw-encoding-2-0.db"):
        conn = sqlite3.connect(tmp_path / name)
        tables.append(conn.execute(f"SELECT {columns} FROM job_events ORDER BY position").fetchall())
        conn.close()
    assert len(tables[0]) == 4 and tables[0] == tables[1]

    connect = append._connect_raw
    monkeypatch.setattr(append, "_connect_raw", lambda path: _full_sync(connect(path)))
    with pytest.raises(AssertionError, match="synchronous"):
        append._raw_encoding(tmp_path, 2, 4, 1)
    with pytest.raises(AssertionError, match="synchronous"):
        append._raw(tmp_path, 2, 4, 1)


def _full_sync(conn: sqlite3.Connection) -> sqlite3.Connection:
    conn.execute("PRAGMA synchronous=FULL")
    return conn
