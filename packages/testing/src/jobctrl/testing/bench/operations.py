"""The operations snapshot at scale, on the embedded SQLite default.

``JOBCTRL_BENCH_OPS_JOBS`` jobs (default 100,000) are seeded as bulk read-model rows: every job has
an ``enrich`` and a ``score`` row in ``job_stage_states`` (a realistic mix of states with 14 days of
durations), one Discover execution owns ``JOBCTRL_BENCH_OPS_MEMBERS`` of them (default 2,000; a
fifth swept backlog) with source-family and fan-out steps and a verified recovery checkpoint, and
two workers heartbeat.  Then, in the same run and in interleaved rounds (ADR 0230; figures are the
median of the rounds' p95s, ratios the median of the per-round ratios):

* ``operations.count_p95_ms``: baseline, ``SELECT count(*) FROM job_stage_states``;
* ``operations.p95_ms``: ``read_operations`` (the body of ``GET /v1/pipeline/operations``) as a
  polling client sees it: the watermark has not moved since the last read, so the whole-table stage
  totals and the execution's member groups come from the ``TotalsCache`` (ADR 0237); the coverage
  proof, running rows, samples and heartbeats are live;
* ``operations.cold_p95_ms``: the same read without the cache (every read after a watermark move);
  the stage totals come from ``job_stage_counts`` and the member groups from
  ``discovery_execution_member_groups``, which the seed fills as the fold would (ADRs 0345, 0445);
* ``operations.ratio_vs_count`` / ``operations.cold_ratio_vs_count``: each against the baseline.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.projections.groupcount import refill
from jobctrl.projections.keydigest import member_term, of_terms, step_term
from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_execution_member_digests,
)
from jobctrl.projections.read_models.member_groups import discovery_execution_member_groups
from jobctrl.projections.read_models.member_groups import refill as refill_member_groups
from jobctrl.projections.read_models.pipeline_steps import (
    pipeline_step_key_digests,
    pipeline_step_projections,
)
from jobctrl.projections.read_models.stage_states import STAGE_GROUPS, job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.recoveries import ExecutionKey, persisted_key_sets, record_native_checkpoint
from jobctrl.runtime.api.operations import (
    SnapshotInputs,
    TotalsCache,
    ensure_operations_schema,
    read_operations,
)
from jobctrl.runtime.telemetry.heartbeat import RuntimeIdentity, write_heartbeat
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.testing.bench.method import interleave, rounds

DEFAULT_JOBS = 100_000
DEFAULT_MEMBERS = 2_000
ITERATIONS = 40
WF, RUN = "discover-local", "11111111-1111-4111-8111-111111111111"
# Running rows are bounded by worker slots in a live system: 16 (2 workers x 8) are seeded apart.
_STATES = ("succeeded",) * 14 + ("pending", "pending", "failed", "blocked", "skipped", "exhausted")
RUNNING = 16


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def _row(table: sa.Table, **values: Any) -> dict[str, Any]:
    """A full row for ``table``: unnamed columns are NULL, names the table lacks are dropped (so the
    seed survives additive read-model schema changes)."""
    return {c.name: values.get(c.name) for c in table.columns}


def _stage_row(job: str, stage: str, state: str, finished: str | None, ms: int | None) -> dict[str, Any]:
    return _row(
        job_stage_states,
        **{
            "tenant_id": "local",
            "job_id": job,
            "stage": stage,
            "state": state,
            "attempts": 1,
            "max_attempts": 5,
            "started_at": finished,
            "finished_at": finished,
            "duration_ms": ms,
            "error_code": None,
            "retryable": None,
            "blocked_by_json": "[]",
            "skip_reason": None,
            "next_action": "none",
            "owner_workflow_id": None,
            "owner_run_id": None,
            "owner_attempt": None,
            "last_event_position": 1,
            "updated_at": finished,
        },
    )


def seed(db: Database, jobs: int, members: int, now: datetime) -> None:
    rng = random.Random(7)
    with db.write() as conn:
        conn.execute(
            sa.insert(workflow_run_projections),
            [
                _row(
                    workflow_run_projections,
                    **{
                        "tenant_id": "local",
                        "workflow_id": WF,
                        "workflow_type": "DiscoverWorkflow",
                        "run_id": RUN,
                        "status": "in_progress",
                        "started_at": isoformat(now - timedelta(hours=1)),
                        "finished_at": None,
                        "error_code": None,
                        "last_event_position": 1,
                        "duration_ms": None,
                        "error_message": None,
                        "retryable": None,
                        "cancel_requested_at": None,
                        "recovered": False,
                        "input_summary_json": "{}",
                        "previous_run_ids_json": "[]",
                        "timeline_json": "[]",
                        "timeline_total": 0,
                        "updated_at": isoformat(now),
                    },
                )
            ],
        )
        batch: list[dict[str, Any]] = []
        for i in range(jobs):
            for stage in ("enrich", "score"):
                state = "running" if i < RUNNING and stage == "score" else rng.choice(_STATES)
                done = state in ("succeeded", "failed", "skipped", "exhausted")
                at = isoformat(now - timedelta(minutes=rng.randint(1, 20 * 24 * 60))) if done else None
                batch.append(
                    _stage_row(f"job-{i}", stage, state, at, rng.randint(200, 9000) if done else None)
                )
            if len(batch) >= 20_000:
                conn.execute(sa.insert(job_stage_states), batch)
                batch.clear()
        if batch:
            conn.execute(sa.insert(job_stage_states), batch)
        refill(conn, STAGE_GROUPS, job_stage_states)  # the counts the fold keeps beside them (ADR 0345)
        conn.execute(
            sa.insert(discovery_execution_jobs),
            [
                _row(
                    discovery_execution_jobs,
                    **{
                        "tenant_id": "local",
                        "workflow_id": WF,
                        "run_id": RUN,
                        "job_id": f"job-{i}",
                        "cohort": "existing_backlog" if i % 5 == 0 else "observed_this_run",
                        "plan_state": "planned",
                        "required_steps_json": '["enrich","score"]',
                        "child_workflow_id": f"prep-{i}",
                        "plan_reason": None,
                        "linked_at": isoformat(now),
                        "promoted_at": None,
                        "plan_recorded_at": None,
                        "updated_at": None,
                        "last_event_position": 1,
                    },
                )
                for i in range(members)
            ],
        )
        # The member groups the fold keeps beside the members and stage rows (ADR 0445).
        refill_member_groups(
            conn, discovery_execution_jobs, job_stage_states, discovery_execution_member_groups
        )
        conn.execute(
            sa.insert(pipeline_step_projections),
            [
                _row(
                    pipeline_step_projections,
                    **{
                        "tenant_id": "local",
                        "workflow_id": WF,
                        "run_id": RUN,
                        "step_kind": "source_family",
                        "item_key": f"family-{f}",
                        "attempt": 1,
                        "status": "succeeded",
                        "queued_at": None,
                        "started_at": None,
                        "finished_at": isoformat(now),
                        "duration_ms": 1000,
                        "error_code": None,
                        "retryable": None,
                        "detail_code": None,
                        "detail_item_count": None,
                        "last_event_id": 1,
                        "last_updated_at": isoformat(now),
                    },
                )
                for f in range(12)
            ],
        )
        # The digests the fold keeps beside the rows (ADR 0132), as it would have left them.
        digests = (
            (
                discovery_execution_member_digests,
                members,
                of_terms(member_term(f"job-{i}") for i in range(members)),
            ),
            (
                pipeline_step_key_digests,
                12,
                of_terms(step_term("source_family", f"family-{f}") for f in range(12)),
            ),
        )
        for table, n, digest in digests:
            conn.execute(
                sa.insert(table),
                [
                    {
                        "tenant_id": "local",
                        "workflow_id": WF,
                        "run_id": RUN,
                        "key_count": n,
                        "key_digest": digest,
                    }
                ],
            )
    key = ExecutionKey("local", WF, RUN)
    with db.read() as conn:
        expected = persisted_key_sets(conn, key)
    record_native_checkpoint(db, key, expected, history_event_id=100, now=isoformat(now))
    for _worker in range(2):
        telemetry = RuntimeTelemetry()
        for k in range(3):
            telemetry.begin("score", "discover-local", RUN, k + 1)
        identity = RuntimeIdentity.current(
            app_dir="/bench", db_path="/bench/jobctrl.db", task_queue="jobctrl", slots=8, now=now
        )
        write_heartbeat(db, identity, telemetry, now, {"approximate": True, "backlogCount": 0})


def run(results: dict[str, Any]) -> None:
    jobs = int(os.environ.get("JOBCTRL_BENCH_OPS_JOBS", DEFAULT_JOBS))
    members = min(jobs, int(os.environ.get("JOBCTRL_BENCH_OPS_MEMBERS", DEFAULT_MEMBERS)))
    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-ops-") as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        EventStore(db, registry()).create_schema()
        ensure_operations_schema(db)
        seed(db, jobs, members, now)
        with db.write() as conn:
            conn.execute(sa.text("ANALYZE"))  # what a long-lived database has; the planner needs it
        cold = SnapshotInputs(now=now)
        warm = SnapshotInputs(now=now, totals_cache=TotalsCache())
        with db.read() as conn:
            count_q = sa.select(sa.func.count()).select_from(job_stage_states)

            def count() -> object:
                return conn.execute(count_q).scalar()

            snap = read_operations(conn, cold)  # warm-up; also proves the seed is visible
            assert snap.execution is not None and snap.projection_coverage is not None
            assert snap.projection_coverage.status == "ready"
            read_operations(conn, warm)  # fills the totals cache, as the first poll does
            _timed(count, 3)
            n = rounds()
            per_round = max(4, ITERATIONS // n)
            # Interleaved (ADR 0230): each round times a batch of each; a figure is the median of the
            # rounds' p95s and a ratio the median of the per-round p95 ratios.
            samples = interleave(
                {
                    "count": lambda _r: _p95(_timed(count, per_round)),
                    "warm": lambda _r: _p95(_timed(lambda: read_operations(conn, warm), per_round)),
                    "cold": lambda _r: _p95(
                        _timed(lambda: read_operations(conn, cold), max(2, per_round // 2))
                    ),
                },
                n,
            )
        db.dispose()
    results["operations.jobs"] = jobs
    results["operations.count_p95_ms"] = samples.median("count")
    results["operations.p95_ms"] = samples.median("warm")
    results["operations.ratio_vs_count"] = samples.ratio("warm", "count")
    results["operations.cold_p95_ms"] = samples.median("cold")
    results["operations.cold_ratio_vs_count"] = samples.ratio("cold", "count")
