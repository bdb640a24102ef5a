"""``apply_run_projections`` from a log written by the apply context's own use cases (the only fold of
apply runs; the context's former private ``fold()`` is gone, issue 11)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from jobctrl.apply.domain.facts import ClaimPolicy
from jobctrl.apply.domain.run_events import FailureResult
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.recover_ambiguous_apply import recover_ambiguous_apply
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models.apply_runs import apply_run_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.testing.apply_facts import ready_facts

pytestmark = pytest.mark.both_databases

CLOCK = FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC))
FACTS = ready_facts(url="https://jobs.example/1")


def _write_log(store: EventStore) -> None:
    """A dry run that fails, then a live run whose submit intent is recovered as ambiguous."""
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


def test_rows_follow_the_runs_and_a_rebuild_equals_the_incremental_fold(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    _write_log(store)
    ProjectionRunner(database, reg, batch_size=2).catch_up()
    with database.read() as conn:
        rows = {r.run_id: r for r in conn.execute(sa.select(apply_run_projections))}
    assert rows["d1"].status == "failed" and rows["d1"].result_code == "form_not_found" and rows["d1"].dry_run
    live = rows["l1"]
    assert live.status == "running" and live.finished_at is None and live.dry_run is False
    assert live.submit_intended_at is not None  # intent without a result: the reader shows needs_verification
    assert live.run_events == 1 and live.last_event_kind is not None
    incremental = table_digests(database)
    rebuild(database, reg, batch_size=3)
    assert table_digests(database) == incremental
