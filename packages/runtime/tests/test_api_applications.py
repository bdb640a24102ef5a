"""After preparation, through the HTTP API: the review queue (with the gate in words), the inline PDFs,
an approval that starts the dry run, outcomes, due follow-ups, the pipeline and the digest.

The log is written by the real use cases (and the seed helpers that record what other contexts
publish); the read models by the real projection runner; Temporal is the real adapter on the session's
dev server (nothing polls the queue: a started workflow stays running and is read back from the
server).  ``application_projections`` folded incrementally equals a rebuild, byte for byte.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from jobctrl.apply.use_cases.record_outcome import record_outcome
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.store import Database, EventStore
from jobctrl.materials import ArtifactKind
from jobctrl.materials.adapters.artifacts import ArtifactStore
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.workflows.apply import ApplyWorkflowInput
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models import applications
from jobctrl.projections.rebuild import rebuild
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.testing.runtime.api_seed import beat, discover_job, prepare_materials, project, score_job
from jobctrl.testing.runtime.temporal_probe import TemporalProbe

from .api_world import NOW

EMAIL = "mailto:careers@globex.example"
APPLY_ID = "apply-local-j1"  # the deterministic id of j1's ApplyWorkflow


@dataclass
class World:
    client: TestClient
    db: Database
    store: EventStore
    temporal: TemporalProbe  # what the real adapter started, read back from the dev server
    clock: FixedClock

    def head(self) -> int:
        return self.store.head_position()


@pytest.fixture
def world(db_url: str, database: Database, tmp_path: Path, temporal_address: str) -> Iterator[World]:
    control, clock = TemporalWorkflowControl(temporal_address), FixedClock(NOW)
    probe = TemporalProbe(temporal_address)
    probe.touched.add(APPLY_ID)
    store = EventStore(database, registry())
    app = create_app(
        ApiConfig(database_url=db_url, sse_poll_s=0.05, control=control, clock=clock, artifacts_root=tmp_path)
    )
    with closing(probe), TestClient(app, raise_server_exceptions=False) as client:
        save_profile(store, to_document(dict(SAMPLE_PROFILE)), clock=clock)
        discover_job(store, "j1", employer="Globex", title="Platform Engineer", apply_url=EMAIL)
        score_job(store, "j1", 8.5)
        prepare_materials(store, "j1", ArtifactStore(tmp_path))
        discover_job(store, "j2", employer="Initech", title="Data Engineer")
        score_job(store, "j2", 7.5)  # scored, not prepared: not in the queue
        beat(database, NOW - timedelta(seconds=5))
        project(database)
        yield World(client, database, store, probe, clock)
    gc.collect()


def _latest_run(world: World, workflow_id: str) -> str | None:
    """The latest run id under ``workflow_id`` on the shared dev server (an earlier test's, or None)."""
    found = world.temporal.find(workflow_id)
    return None if found is None else found.run_id


@pytest.mark.both_databases
def test_the_queue_lists_prepared_jobs_with_the_gate_in_words(world: World) -> None:
    body = world.client.get("/v1/apply/review").json()
    assert body["total"] == 1
    [item] = body["items"]
    assert item["jobId"] == "j1" and item["employer"] == "Globex" and item["fitScore"] == 8.5
    assert item["applyBy"] == "email" and item["applicationUrl"] == EMAIL
    assert item["materialsGeneration"] == 1 and item["profileVersion"] == 1
    assert item["gate"] == "awaiting_approval" and "approve" in item["gateReason"]
    pdf = world.client.get(f"/v1/jobs/j1/materials/{item['resumePdfArtifactId']}.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF") and pdf.headers["content-disposition"] == "inline"
    assert world.client.get("/v1/jobs/j1/materials/not-mine.pdf").status_code == 404


@pytest.mark.both_databases
def test_the_materials_list_names_each_pdf_with_the_digest_of_what_its_url_serves(world: World) -> None:
    [item] = world.client.get("/v1/apply/review").json()["items"]
    listed = world.client.get("/v1/jobs/j1/materials")
    assert listed.status_code == 200
    body = listed.json()
    assert body["jobId"] == "j1" and body["prepared"] is True
    by_type = {m["artifactType"]: m for m in body["items"]}
    assert set(by_type) == {"resume", "cover_letter"}
    assert by_type["resume"]["artifactId"] == item["resumePdfArtifactId"]
    assert by_type["cover_letter"]["artifactId"] == item["coverPdfArtifactId"]
    for m in body["items"]:
        pdf = world.client.get(m["url"])
        assert pdf.status_code == 200 and m["mediaType"] == "application/pdf"
        assert hashlib.sha256(pdf.content).hexdigest() == m["sha256"] and len(pdf.content) == m["size"]
    unknown = world.client.get("/v1/jobs/no-such-job/materials")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "job_not_found"
    paths = world.client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/v1/jobs/{job_id}/materials"]


@pytest.mark.both_databases
def test_a_known_job_not_yet_prepared_lists_no_materials_and_an_unknown_job_is_not_found(
    world: World,
) -> None:
    """j2 is discovered and scored but not prepared: 200, ``prepared: false``, no items — not the 404
    an unknown job gets.  Its PDF route still has nothing to serve.  Both meanings are in OpenAPI."""
    head = world.head()
    pending = world.client.get("/v1/jobs/j2/materials")
    assert pending.status_code == 200
    assert pending.json() == {"jobId": "j2", "prepared": False, "items": []}
    unknown = world.client.get("/v1/jobs/no-such-job/materials")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "job_not_found"
    pdf = world.client.get("/v1/jobs/j2/materials/anything.pdf")
    assert pdf.status_code == 404 and pdf.json()["error"]["code"] == "artifact_not_found"
    gone = world.client.get("/v1/jobs/no-such-job/materials/anything.pdf")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "job_not_found"
    operation = world.client.get("/openapi.json").json()["paths"]["/v1/jobs/{job_id}/materials"]["get"]
    assert "prepared: false" in operation["description"]
    assert "job_not_found" in operation["responses"]["404"]["description"]
    assert world.head() == head  # reads write nothing


@pytest.mark.both_databases
def test_an_approved_dry_run_starts_the_apply_workflow(world: World) -> None:
    decision = {"decision": "approve_dry_run", "materialsGeneration": 1, "profileVersion": 1,
                "applicationUrl": EMAIL}  # fmt: skip
    response = world.client.post("/v1/jobs/j1/apply-review/decision", json=decision)
    assert response.status_code == 200, response.text
    assert response.json()["workflowId"] == "apply-local-j1" and response.json()["dryRun"] is True
    started = world.temporal.find(APPLY_ID)
    assert started is not None and (started.workflow_type, started.status) == ("ApplyWorkflow", "RUNNING")
    assert ApplyWorkflowInput(**started.input) == ApplyWorkflowInput(
        tenant="local", job_id="j1", dry_run=True
    )


@pytest.mark.both_databases
def test_a_live_approval_without_dry_run_evidence_starts_nothing_and_says_why(world: World) -> None:
    before = _latest_run(world, APPLY_ID)
    decision = {"decision": "approve_submit", "materialsGeneration": 1, "profileVersion": 1,
                "applicationUrl": EMAIL}  # fmt: skip
    response = world.client.post("/v1/jobs/j1/apply-review/decision", json=decision)
    assert response.status_code == 200, response.text
    assert (
        response.json()["gate"] == "approval_stale_email_candidate" and response.json()["workflowId"] is None
    )
    assert _latest_run(world, APPLY_ID) == before


@pytest.mark.both_databases
def test_without_a_ready_worker_an_approval_is_refused_and_nothing_is_written(world: World) -> None:
    with world.db.write() as conn:  # the worker went away: no fresh heartbeat
        conn.exec_driver_sql("DELETE FROM worker_runtime_heartbeats")
    before, latest = world.head(), _latest_run(world, APPLY_ID)
    decision = {"decision": "approve_dry_run", "materialsGeneration": 1, "profileVersion": 1,
                "applicationUrl": EMAIL}  # fmt: skip
    response = world.client.post("/v1/jobs/j1/apply-review/decision", json=decision)
    assert response.status_code == 503 and response.json()["error"]["code"] == "worker_runtime_unavailable"
    assert world.head() == before and _latest_run(world, APPLY_ID) == latest


@pytest.mark.both_databases
def test_outcomes_settle_the_follow_up_and_move_the_pipeline(world: World) -> None:
    applied_at = isoformat(NOW - timedelta(days=10))
    record_outcome(world.store, job_id="j1", outcome="applied", occurred_at=applied_at, clock=world.clock)
    project(world.db)
    due = world.client.get("/v1/follow-ups/due").json()
    assert due["followUpDays"] == 7 and [i["jobId"] for i in due["items"]] == ["j1"]
    assert world.client.get("/v1/applications/pipeline").json()["counts"] == {"applied": 1}

    before = world.head()
    bad = world.client.post("/v1/jobs/j1/outcomes", json={"outcome": "hired"})
    assert bad.status_code == 422 and world.head() == before
    assert world.client.post("/v1/jobs/nope/outcomes", json={"outcome": "offer"}).status_code == 404
    ok = world.client.post("/v1/jobs/j1/outcomes", json={"outcome": "interview", "note": "Tuesday"})
    assert ok.status_code == 201 and ok.json()["kind"] == "interview"
    project(world.db)
    assert world.client.get("/v1/follow-ups/due").json()["items"] == []
    assert world.client.get("/v1/applications/pipeline").json()["counts"] == {"interview": 1}
    outcomes = world.client.get("/v1/jobs/j1/outcomes").json()["items"]
    assert [o["outcome"] for o in outcomes] == ["applied", "interview"]


@pytest.mark.both_databases
def test_the_digest_counts_and_its_acknowledgement_is_an_event(world: World) -> None:
    digest = world.client.get("/v1/digest").json()
    assert digest["newMatches"] == 2 and digest["prepared"] == 1 and digest["awaitingReview"] == 1
    assert digest["followUpsDue"] == 0 and digest["budgetUsd"] == 25.0 and digest["acknowledgedAt"] is None
    first = world.client.post("/v1/digest/acknowledge").json()
    second = world.client.post("/v1/digest/acknowledge").json()
    assert (
        first["previousAcknowledgedAt"] is None
        and second["previousAcknowledgedAt"] == first["acknowledgedAt"]
    )
    reviewed = world.store.read_all(limit=1000, types=["DigestReviewed"])
    assert len(reviewed) == 2
    assert world.client.get("/v1/digest").json()["acknowledgedAt"] == second["acknowledgedAt"]


@pytest.mark.both_databases
def test_application_projections_fold_equals_a_rebuild_byte_for_byte(world: World) -> None:
    record_outcome(world.store, job_id="j1", outcome="applied", clock=world.clock)
    record_outcome(world.store, job_id="j1", outcome="rejected", clock=world.clock)
    prepare_materials(world.store, "j2")
    project(world.db)
    folded = table_digests(world.db, [applications.PROJECTION])
    rebuild(world.db, registry(), ["applications"])
    assert table_digests(world.db, [applications.PROJECTION]) == folded
    with world.db.read() as conn:
        rows = conn.exec_driver_sql(
            "SELECT job_id, outcome, applied_at IS NOT NULL, settled_at IS NOT NULL, prepared_at IS NOT NULL"
            " FROM application_projections ORDER BY job_id"
        ).all()
    assert [tuple(r) for r in rows] == [
        ("j1", "rejection", True, True, True),
        ("j2", None, False, False, True),
    ]


@pytest.mark.both_databases
def test_contact_research_is_started_by_the_user_for_a_job(world: World) -> None:
    before = world.head()
    body = {"sources": ["https://globex.example/team"]}
    started = world.client.post("/v1/jobs/j1/contact-research", json=body)
    assert started.status_code == 202, started.text
    task_id = started.json()["taskId"]
    assert started.json()["workflowId"] == f"contact-research-local-{task_id}"
    research = world.temporal.find(started.json()["workflowId"])
    assert research is not None and research.workflow_type == "ContactResearchWorkflow"
    arg = research.input
    assert (arg["job_id"], arg["employer"], arg["sources"]) == (
        "j1",
        "Globex",
        ["https://globex.example/team"],
    )
    assert world.head() == before  # the workflow records the task, not the route
    bad = world.client.post("/v1/jobs/j1/contact-research", json={"sources": ["file:///etc/passwd"]})
    assert bad.status_code == 422
    assert world.client.post("/v1/jobs/nope/contact-research", json={}).status_code == 404
    assert world.temporal.find(started.json()["workflowId"]) == research  # the refusals started nothing


def _text_pdf(line: str) -> bytes:
    """A one-page PDF whose page draws ``line`` in Helvetica (offsets computed, as a writer would)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({line}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


@pytest.mark.both_databases
def test_the_text_of_a_rendered_pdf_is_served_page_by_page(world: World, tmp_path: Path) -> None:
    discover_job(world.store, "j3", employer="Umbrella", title="Platform Engineer")
    score_job(world.store, "j3", 8.0)
    resume_pdf, cover_pdf = prepare_materials(world.store, "j3")
    artifacts = ArtifactStore(tmp_path)
    artifacts.put(resume_pdf, ArtifactKind.RESUME_PDF, _text_pdf("Ada Lovelace, Platform Engineer"))
    artifacts.put(cover_pdf, ArtifactKind.COVER_LETTER_PDF, b"%PDF-1.4 not really a PDF")
    project(world.db)
    text = world.client.get(f"/v1/jobs/j3/materials/{resume_pdf}/text")
    assert text.status_code == 200, text.text
    body = text.json()
    assert body["pageCount"] == 1 and "Ada Lovelace, Platform Engineer" in body["pages"][0]
    assert body["artifactId"] == resume_pdf and body["jobId"] == "j3"
    unreadable = world.client.get(f"/v1/jobs/j3/materials/{cover_pdf}/text")
    assert unreadable.status_code == 422 and unreadable.json()["error"]["code"] == "pdf_unreadable"
    assert world.client.get("/v1/jobs/j1/materials/not-mine/text").status_code == 404
    assert world.client.get("/v1/jobs/no-such-job/materials/anything/text").status_code == 404
    paths = world.client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/v1/jobs/{job_id}/materials/{artifact_id}/text"]
