"""Reliability: event import under fuzzed input (hypothesis).  Goal: 0 crashes — every bad file is a
typed rejection naming its lines with nothing written, every good file imports whole."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.importing import import_lines
from jobctrl.testing.figures import Figures

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]
EXAMPLES = 60

GOOD: dict[str, Any] = {
    "eventType": "StageStarted",
    "tenantId": "local",
    "occurredAt": "2026-03-01T09:00:05.000Z",
    "payload": {"jobId": "job-b", "stage": "enrich", "attemptNumber": 1, "startedAt": "2026-03-01T09:00:05Z"},
}
ids = st.text(alphabet="abcdef0123456789-", min_size=1, max_size=300)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
instants = st.sampled_from(
    [
        "2026-03-01T09:00:05Z",
        "9999-12-31T23:59:59-01:00",
        "0001-01-01T00:00:00+01:00",
        "yesterday",
        "",
        "2026-13-45",
    ]
)


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["good", "mutated", "bytes", "deep", "wide"]))
    if kind == "bytes":
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if kind == "deep":
        depth = draw(st.integers(min_value=200, max_value=3000))
        return b'{"eventType": "StageStarted", "payload": ' + b"[" * depth + b"]" * depth + b"}"
    line = json.loads(json.dumps(GOOD))
    if kind == "wide":
        line["payload"]["jobId"] = "j" * draw(st.integers(min_value=1, max_value=400_000))
    elif kind == "mutated":
        field = draw(
            st.sampled_from(["eventType", "tenantId", "occurredAt", "payload", "eventId", "metadata"])
        )
        if field == "occurredAt":
            line[field] = draw(instants)
        elif field == "payload":
            line["payload"][draw(st.sampled_from(["jobId", "stage", "attemptNumber", "extra"]))] = draw(
                json_values
            )
        elif field in ("tenantId", "eventId"):
            line[field] = draw(ids | json_values)  # long ids too: the log's columns bound them
        else:
            line[field] = draw(json_values)
    return json.dumps(line).encode()


def test_fuzzed_import_files_never_crash_and_never_half_write(
    database: Database, store: EventStore, reg: EventRegistry, db_kind: str, figures: Figures
) -> None:
    crashes: list[str] = []
    runs = {"files": 0, "rejected": 0, "imported": 0}

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.lists(lines(), min_size=1, max_size=6))
    def check(file: list[bytes]) -> None:
        head = store.head_position()
        runs["files"] += 1
        try:
            report = import_lines(store, file)
        except Exception as exc:  # the figure counts it; the assertion below fails on it
            crashes.append(f"{type(exc).__name__}: {exc}"[:200])
            return
        if report.rejected:
            runs["rejected"] += 1
            assert store.head_position() == head  # nothing of a rejected file is written
            assert all(1 <= r.line <= len(file) for r in report.rejected)
        else:
            runs["imported"] += 1
            assert store.head_position() == head + report.imported

    check()
    figures.record(
        f"crashes importing {runs['files']} fuzzed files ({db_kind}; {runs['rejected']} refused whole)",
        len(crashes),
        goal="0",
        met=not crashes,
    )
    assert crashes == []
    assert runs["rejected"] > 0 and runs["imported"] > 0  # both paths were exercised
