"""``jobctrl demo``'s library entry on one source of the sample board, against the shared dev server:
it completes, its summary prints, the data lands under $JOBCTRL_HOME, and the read models end at the
log head and equal a clean rebuild."""

from __future__ import annotations

import dataclasses
import threading
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from rich.console import Console

from jobctrl.discovery.events import JobDiscovered
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import events as orchestration_events
from jobctrl.projections import ProjectionRunner, read_status, rebuild
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.runtime import following
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.commands import demo as demo_command
from jobctrl.testing.runtime.api_seed import discover_job, score_job


@pytest.mark.asyncio
async def test_demo_entry_completes_on_a_board_subset_and_summarizes(
    temporal_address: str,
    database: Database,
    db_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path))
    monkeypatch.setenv("TEMPORAL_ADDRESS", temporal_address)
    tenant = f"t{uuid.uuid4().hex[:8]}"
    with SampleJobBoard() as board:
        outcome = await demo_command.run_demo(
            database, board=board, top_n=1, quiet=True, source_ids=["ashby-hooli"],
            tenant=tenant, task_queue=f"test-{tenant}",
        )  # fmt: skip
        assert board.server.posts == []
    report = outcome.report
    assert report.discover.observed_jobs == 7 and not report.failed
    assert len(report.prepared) + len(report.not_eligible) == 7
    for job_id in report.prepared:
        ids = outcome.comp.facts.pdf_ids(job_id)
        assert ids is not None
        assert Path(tmp_path / "artifacts").joinpath(f"{ids[0]}.pdf").exists()
    assert set(report.dry_runs.values()) <= {"dry_run_completed"} and report.submitted == 0
    # The contexts' activities write their facts under the workflow's tenant (ADR 0080, 0082).
    store = EventStore(database, registry())
    facts_tenants = {s.tenant_id for s in store.read_all(limit=1_000, types=[JobDiscovered.event_type])}
    assert facts_tenants == {tenant}
    facts_tenant = facts_tenants.pop()
    monkeypatch.setattr(demo_command, "console", Console(width=400))
    with demo_command.console.capture() as captured:
        demo_command.print_summary(dataclasses.replace(outcome, tenant=facts_tenant), 1)
    text = captured.get()
    assert "7 jobs per stage" in text and "LLM spend today" in text and str(tmp_path / "artifacts") in text

    # The read models were kept by the projection runner: at the log head, nothing skipped.
    status = read_status(database)
    assert status.head > 0 and status.watermark == status.head and status.lag == 0
    assert status.skipped == 0, status.recent_skipped
    assert outcome.projections.watermark == status.head
    assert f"watermark {status.head} of head {status.head}" in text
    assert "jobctrl projections status" in text and "http://127.0.0.1:8787/" in text
    # job_stage_states has a row for every (tenant, job, stage) the pipeline touched, and no other.
    stage_types = {
        cls.event_type
        for cls in orchestration_events.EVENTS
        if cls.__name__.startswith("Stage") and {"job_id", "stage"} <= set(cls.__struct_fields__)
    }
    touched: set[tuple[str, str, str]] = set()
    for stored in store.read_all(limit=1_000_000, types=sorted(stage_types)):
        event = store.registry.decode(stored)
        touched.add((stored.tenant_id, event.job_id, event.stage))  # type: ignore[attr-defined]
    with database.read() as conn:
        rows = {
            (t, j, s)
            for t, j, s in conn.execute(
                sa.select(job_stage_states.c.tenant_id, job_stage_states.c.job_id, job_stage_states.c.stage)
            )
        }
        listed = conn.execute(
            sa.select(sa.func.count())
            .select_from(job_list_projections)
            .where(job_list_projections.c.tenant_id == facts_tenant)
        ).scalar_one()
    assert touched and rows == touched
    assert {s for _, _, s in rows} >= {"enrich", "score"}
    assert listed == 7
    # The summary's table came from the read models: 7 jobs, and the scored ones add up per stage.
    jobs, per_stage = demo_command.stage_counts(database, facts_tenant)
    assert jobs == 7 and all(sum(c.values()) == 7 for c in per_stage.values())
    with database.read() as conn:
        by_state = conn.execute(
            sa.select(job_stage_states.c.stage, job_stage_states.c.state, sa.func.count())
            .where(job_stage_states.c.tenant_id == facts_tenant)
            .group_by(job_stage_states.c.stage, job_stage_states.c.state)
        ).all()
    assert by_state
    for stage, state, n in by_state:
        if stage in per_stage and state != "pending":
            assert per_stage[stage][state] == n, (stage, state)
    # Read models equal a clean rebuild of every projection from the log.
    before = table_digests(database)
    rebuild(database, registry())
    assert table_digests(database) == before
    # `jobctrl serve` over the demo's database serves its jobs and the operations snapshot.
    with TestClient(
        create_app(ApiConfig(database_url=db_url, tenant_id=tenant)), raise_server_exceptions=False
    ) as client:
        jobs_page = client.get("/v1/jobs")
        operations = client.get("/v1/pipeline/operations")
        runs = client.get("/v1/workflow-runs", params={"workflowType": "DiscoverWorkflow"})
    assert jobs_page.status_code == 200 and jobs_page.json()["total"] == 7
    assert {j["jobId"] for j in jobs_page.json()["items"]} == {j for _, j, _ in rows}
    # Real stages: a prepared job reached Cover, a not-eligible one stopped at Score (its Tailor and
    # Cover were skipped, not reached).
    stages_read = {j["jobId"]: j["currentStage"] for j in jobs_page.json()["items"]}
    assert stages_read == {j: "cover" if j in report.prepared else "score" for j in stages_read}
    assert operations.status_code == 200, operations.text
    enrich = [s for s in operations.json()["stages"] if s["stage"] == "enrich" and s["succeeded"]]
    assert sum(s["succeeded"] for s in enrich) == 7
    # The clean run reads the same phase on every route, and its spine reached total/total
    # (families + 2: every family, the enrichment pass and the fan-out advanced it; ADR 0130, 0131).
    execution = operations.json()["execution"]
    assert execution["phase"] == "completed", execution
    total = execution["progress"]["total"]
    assert total >= 3 and execution["progress"] == {"completed": total, "total": total}
    assert [r["phase"] for r in runs.json()["items"]] == ["completed"]
    # The runtime earned the run's coverage checkpoint, and every read verifies it (ADR 0132).
    coverage = operations.json()["projectionCoverage"]
    assert coverage["status"] == "ready" and coverage["verified"], coverage
    assert coverage["persistedMembers"] == coverage["expectedMembers"] == 7


def test_following_projections_ends_at_the_head_with_events_appended_meanwhile(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    with following.following_projections(database, poll_interval=0.01) as runner:
        for n in range(5):
            discover_job(store, f"job-{n}")
            score_job(store, f"job-{n}", float(n))
        assert not runner.stopping
    assert runner.stopping
    status = read_status(database)
    assert status.head > 0 and status.watermark == status.head
    jobs, _ = demo_command.stage_counts(database, "local")
    assert jobs == 5
    assert [round(fit) for _, _, _, fit in demo_command.top_matches(database, "local", 2)] == [4, 3]


def test_a_failing_projection_follower_is_reported_not_swallowed(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken(ProjectionRunner):
        def run(self, stop: threading.Event | None = None) -> None:
            raise RuntimeError("fold exploded")

    monkeypatch.setattr(following, "ProjectionRunner", Broken)
    with (
        pytest.raises(following.ProjectionFollowFailed, match="fold exploded") as raised,
        following.following_projections(database),
    ):
        pass
    assert raised.value.code == "projection_follow_failed"
