"""``apply_run_projections`` fold: rows from a real log, and incremental folding equals a rebuild."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest

from jobctrl.apply.facts import ClaimPolicy, CurrentJobFacts
from jobctrl.apply.read_model import ApplyRunRow, events_json, fold
from jobctrl.apply.run_events import FailureResult
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.recover_ambiguous_apply import recover_ambiguous_apply
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.events import StoredEvent
from jobctrl.kernel.store import Database, EventStore

CLOCK = FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC))
FACTS = CurrentJobFacts(
    job_id="job-1",
    employer="Acme",
    role="Data Engineer",
    materials_generation=1,
    profile_version=1,
    application_url="https://jobs.example/1",
    resume_pdf_ready=True,
    score_current=True,
    score_eligible=True,
    score=8.0,
)


@pytest.fixture
def store(database: Database) -> EventStore:
    s = EventStore(database, registry())
    s.create_schema()
    return s


def _log(store: EventStore) -> list[StoredEvent]:
    no_approval = ClaimPolicy(approval_required=False)
    claim_apply(store, FACTS, no_approval, run_id="d1", worker_id="w", model="m", dry_run=True, clock=CLOCK)
    repo = jobs(store, CLOCK)
    app = repo.get("job-1")
    app.fail("d1", FailureResult(code="form_not_found", retryable=False))
    repo.save(app)
    claim_apply(store, FACTS, no_approval, run_id="l1", worker_id="w", model="m", dry_run=False, clock=CLOCK)
    app = repo.get("job-1")
    app.intend_submit("l1", tenant_id="local", material_version="1", intended_at="2026-03-01T09:00:00.000Z")
    repo.save(app)
    recover_ambiguous_apply(store, job_id="job-1", stale_run_ids=frozenset({"l1"}), clock=CLOCK)
    return store.read_all(limit=10_000)


def _fold(rows: dict[str, ApplyRunRow], stored: list[StoredEvent], store: EventStore) -> None:
    for row in stored:
        fold(rows, store.registry.decode(row), tenant_id=row.tenant_id, occurred_at=row.occurred_at)


def test_rows_follow_the_runs(store: EventStore) -> None:
    rows: dict[str, ApplyRunRow] = {}
    _fold(rows, _log(store), store)
    assert rows["d1"].status == "failed" and rows["d1"].result == "form_not_found" and rows["d1"].dry_run
    assert rows["l1"].status == "needs_verification" and rows["l1"].finished_at is None
    assert [e.event_type for e in rows["l1"].events] == [
        "ApplyRunStarted",
        "ApplySubmitIntended",
        "ApplyRunEventRecorded",
    ]
    assert rows["l1"].events[-1].code == "APPLY_NEEDS_VERIFICATION"
    assert "ApplySubmitIntended" in events_json(rows["l1"])


def test_incremental_fold_equals_rebuild(store: EventStore) -> None:
    stored = _log(store)
    full: dict[str, ApplyRunRow] = {}
    _fold(full, stored, store)
    for cut in range(len(stored) + 1):
        incremental: dict[str, ApplyRunRow] = {}
        _fold(incremental, stored[:cut], store)
        _fold(incremental, stored[cut:], store)
        assert msgspec.json.encode(incremental) == msgspec.json.encode(full)
