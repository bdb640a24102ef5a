"""The HTTP API's endpoints over real events, the real projection runner and a real database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from jobctrl.kernel.store import Database
from jobctrl.orchestration import load_job_stages
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.domain.stages.states import Failed
from jobctrl.testing.runtime.api_seed import (
    beat,
    complete_run,
    discover_job,
    fail_stage,
    score_job,
    start_run,
    step,
)

from .api_world import NOW, ApiWorld, api_world

pytestmark = pytest.mark.both_databases


@pytest.fixture
def world(db_url: str, database: Database, temporal_address: str) -> Iterator[ApiWorld]:
    """The API on the real Temporal adapter and the session's dev server (ADR 0273)."""
    yield from api_world(db_url, database, temporal=temporal_address)


IDLE_QUEUE = "api-endpoints-idle"  # no worker polls it: an execution started here stays RUNNING


def _code(response: object) -> str:
    body = response.json()  # type: ignore[attr-defined]
    return str(body["error"]["code"])


# -- jobs -------------------------------------------------------------------------------------------
def test_jobs_list_filters_and_pages(world: ApiWorld) -> None:
    discover_job(world.store, "j1", employer="Acme", title="Python engineer")
    discover_job(world.store, "j2", employer="Globex", title="Data analyst")
    discover_job(world.store, "j3", employer="acme", title="Go engineer")
    score_job(world.store, "j1", 8.5)
    score_job(world.store, "j2", 4.0)
    fail_stage(world.store, "j1", "score")
    world.project()
    c = world.client
    everything = c.get("/v1/jobs").json()
    assert everything["total"] == 3 and len(everything["items"]) == 3
    assert [j["jobId"] for j in c.get("/v1/jobs?minScore=5").json()["items"]] == ["j1"]
    assert sorted(j["jobId"] for j in c.get("/v1/jobs?employer=ACME").json()["items"]) == ["j1", "j3"]
    assert [j["jobId"] for j in c.get("/v1/jobs?q=analyst").json()["items"]] == ["j2"]
    by_stage = c.get("/v1/jobs?stage=score").json()["items"]
    assert [(j["jobId"], j["currentStage"], j["currentStageState"]) for j in by_stage] == [
        ("j1", "score", "failed")
    ]
    page = c.get("/v1/jobs?limit=2&offset=2").json()
    assert page["total"] == 3 and len(page["items"]) == 1


def test_job_detail_includes_stage_states_and_404s(world: ApiWorld) -> None:
    discover_job(world.store, "j1")
    fail_stage(world.store, "j1", "enrich")
    world.project()
    detail = world.client.get("/v1/jobs/j1").json()
    assert detail["job"]["jobId"] == "j1" and detail["postingUrl"] == "https://jobs.example/j1"
    assert [(s["stage"], s["state"], s["attempts"]) for s in detail["stages"]] == [("enrich", "failed", 1)]
    missing = world.client.get("/v1/jobs/nope")
    assert missing.status_code == 404 and _code(missing) == "job_not_found"


def test_bad_query_is_a_typed_422(world: ApiWorld) -> None:
    for url in (
        "/v1/jobs?limit=0",
        "/v1/jobs?minScore=11",
        "/v1/jobs?stage=bogus",
        "/v1/workflow-runs?status=x",
    ):
        response = world.client.get(url)
        assert response.status_code == 422, url
        assert _code(response) == "invalid_request"


# -- workflow runs and cancel ------------------------------------------------------------------------
def test_runs_show_phase_and_cancelable(world: ApiWorld) -> None:
    start_run(world.store, "discover-local", "r1")
    start_run(world.store, "discover-other", "r2")
    step(world.store, "discover-other", "r2", "preparation_fanout", done=True)
    start_run(world.store, "discover-done", "r3")
    complete_run(world.store, "discover-done", "r3")
    start_run(world.store, "discover-closed-draining", "r4")
    step(world.store, "discover-closed-draining", "r4", "enrichment_pass", done=False)
    complete_run(world.store, "discover-closed-draining", "r4")
    start_run(world.store, "prep-x", "r5", workflow_type="JobPreparationWorkflow")
    world.project()
    runs = {r["workflowId"]: r for r in world.client.get("/v1/workflow-runs").json()["items"]}
    assert {k: (v["phase"], v["cancelable"]) for k, v in runs.items()} == {
        "discover-local": ("discovering", True),
        "discover-other": ("draining", True),
        "discover-done": ("completed", False),
        "discover-closed-draining": ("draining", False),
        "prep-x": (None, False),
    }
    detail = world.client.get("/v1/workflow-runs/discover-done").json()
    assert detail["status"] == "succeeded" and [t["kind"] for t in detail["timeline"]] == [
        "started",
        "closed",
    ]
    assert world.client.get("/v1/workflow-runs/none").status_code == 404


def test_cancel_an_in_progress_discover_run_records_the_request_once(world: ApiWorld) -> None:
    run_id = world.temporal.start_idle("DiscoverWorkflow", "discover-local", IDLE_QUEUE)
    start_run(world.store, "discover-local", run_id)
    world.project()
    assert world.temporal.find("discover-local", run_id).cancel_requested is False  # type: ignore[union-attr]
    response = world.client.post("/v1/workflow-runs/discover-local/actions/cancel")
    assert response.status_code == 202 and response.json()["cancelRecorded"] is True
    on_server = world.temporal.find("discover-local", run_id)  # the exact run got the cancel
    assert on_server is not None and on_server.cancel_requested
    requested = [e for e in world.store.read_all(after=0) if e.event_type == "WorkflowCancellationRequested"]
    assert len(requested) == 1
    world.project()
    detail = world.client.get("/v1/workflow-runs/discover-local").json()
    assert detail["cancelRequestedAt"] is not None and detail["cancelRequestedBy"] == "operator"
    listed = world.client.get("/v1/workflow-runs").json()["items"]
    assert [r["cancelRequestedBy"] for r in listed if r["workflowId"] == "discover-local"] == ["operator"]
    again = world.client.post("/v1/workflow-runs/discover-local/actions/cancel")
    assert again.status_code == 202 and again.json()["cancelRecorded"] is False
    assert (
        len([e for e in world.store.read_all(after=0) if e.event_type == "WorkflowCancellationRequested"])
        == 1
    )


def test_a_closed_run_still_draining_is_not_cancelable(world: ApiWorld) -> None:
    start_run(world.store, "discover-local", "r1")
    step(world.store, "discover-local", "r1", "enrichment_pass", done=False)
    complete_run(world.store, "discover-local", "r1")
    world.project()
    run_id = world.temporal.start_idle("DiscoverWorkflow", "discover-local", IDLE_QUEUE)
    head = world.head()
    response = world.client.post("/v1/workflow-runs/discover-local/actions/cancel")
    assert response.status_code == 409 and _code(response) == "run_not_cancelable"
    on_server = world.temporal.find("discover-local", run_id)
    assert world.head() == head and on_server is not None and not on_server.cancel_requested


def test_cancel_without_temporal_is_503_and_writes_nothing(db_url: str, database: Database) -> None:
    for world in api_world(db_url, database):  # no Temporal configured
        start_run(world.store, "discover-local", "r1")
        world.project()
        head = world.head()
        response = world.client.post("/v1/workflow-runs/discover-local/actions/cancel")
        assert response.status_code == 503 and _code(response) == "temporal_unavailable"
        assert world.head() == head


# -- retry-stage -------------------------------------------------------------------------------------
def test_retry_and_run_without_a_fresh_worker_is_503_and_changes_nothing(world: ApiWorld) -> None:
    fail_stage(world.store, "j1", "score")
    beat(world.db, NOW - timedelta(seconds=46))  # stale
    head = world.head()
    response = world.client.post("/v1/jobs/j1/actions/retry-stage", json={"stage": "score", "runAfter": True})
    assert response.status_code == 503 and _code(response) == "worker_runtime_unavailable"
    assert world.head() == head
    assert isinstance(load_job_stages(world.store, "j1").state("score"), Failed)


def test_retry_and_run_with_a_fresh_worker_resets_and_starts_preparation(world: ApiWorld) -> None:
    fail_stage(world.store, "j1", "tailor")
    beat(world.db, NOW - timedelta(seconds=10))
    response = world.client.post(
        "/v1/jobs/j1/actions/retry-stage", json={"stage": "tailor", "runAfter": True}
    )
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["state"] == "Pending" and body["workflowId"].startswith("prep-preparation:")
    started = world.temporal.find(body["workflowId"])
    assert started is not None and (started.workflow_type, started.status) == (
        "JobPreparationWorkflow",
        "RUNNING",
    )
    assert started.input["job_id"] == "j1" and started.input["steps"] == ["tailor", "cover", "pdf"]


def test_reset_only_is_a_local_200_even_without_a_worker(world: ApiWorld) -> None:
    fail_stage(world.store, "j1", "enrich")
    head = world.head()
    response = world.client.post(
        "/v1/jobs/j1/actions/retry-stage", json={"stage": "enrich", "runAfter": False}
    )
    assert response.status_code == 200 and response.json()["state"] == "Pending"
    assert world.head() == head + 1 and response.json()["workflowId"] is None  # nothing started


def test_retry_refusals_are_typed_and_write_nothing(world: ApiWorld) -> None:
    fail_stage(world.store, "j1", "enrich")
    beat(world.db, NOW)
    head = world.head()
    c = world.client
    unsupported = c.post("/v1/jobs/j1/actions/retry-stage", json={"stage": "enrich", "runAfter": True})
    assert unsupported.status_code == 400 and _code(unsupported) == "unsupported_retry_run_after_stage"
    not_failed = c.post("/v1/jobs/j1/actions/retry-stage", json={"stage": "score"})
    assert not_failed.status_code == 409 and _code(not_failed) == "stage_not_retryable"
    unknown = c.post("/v1/jobs/zz/actions/retry-stage", json={"stage": "score"})
    assert unknown.status_code == 404
    typo = c.post("/v1/jobs/j1/actions/retry-stage", json={"stage": "enrich", "runafter": True})
    assert typo.status_code == 422
    assert world.head() == head


# -- discovery start ---------------------------------------------------------------------------------
def _latest_run(world: ApiWorld, workflow_id: str) -> str | None:
    """The latest run id under ``workflow_id`` on the shared server (an earlier test's, or None)."""
    found = world.temporal.find(workflow_id)
    return None if found is None else found.run_id


def test_discovery_start_needs_a_fresh_worker(world: ApiWorld) -> None:
    before = _latest_run(world, "discover-local")
    refused = world.client.post("/v1/discovery/runs", json={})
    assert refused.status_code == 503 and _code(refused) == "worker_runtime_unavailable"
    assert _latest_run(world, "discover-local") == before  # nothing reached the server
    beat(world.db, NOW)
    started = world.client.post("/v1/discovery/runs", json={"limit": 5})
    assert started.status_code == 202 and started.json()["workflowId"] == "discover-local"
    on_server = world.temporal.find("discover-local")
    assert on_server is not None and (on_server.workflow_type, on_server.status) == (
        "DiscoverWorkflow",
        "RUNNING",
    )
    assert on_server.run_id == started.json()["runId"] and on_server.input["limit"] == 5
    again = world.client.post("/v1/discovery/runs", json={})
    assert again.status_code == 409 and _code(again) == "workflow_already_running"


# -- settings and profile ----------------------------------------------------------------------------
def test_settings_patch_validates_everything_before_saving(world: ApiWorld) -> None:
    c = world.client
    assert c.get("/v1/settings").json()["workerActivitySlots"] == 4
    ok = c.patch("/v1/settings", json={"workerActivitySlots": 8, "autoApply": True})
    assert ok.status_code == 200 and ok.json()["workerActivitySlots"] == 8
    bad = c.patch("/v1/settings", json={"workerActivitySlots": 2, "discoveryScheduleCron": "nope"})
    assert bad.status_code == 422 and _code(bad) == "invalid_settings"
    unknown = c.patch("/v1/settings", json={"workerSlots": 2})
    assert unknown.status_code == 422
    saved = SettingsStore(world.db).load()
    assert saved.worker_activity_slots == 8 and saved.auto_apply is True


def test_profile_patch_saves_changes_and_a_no_op_writes_nothing(world: ApiWorld) -> None:
    c = world.client
    assert c.get("/v1/profile").json() == {"profileVersion": 0, "content": {}}
    skills = [{"id": "skills-1", "name": "Languages", "skills": ["python"]}]
    first = c.patch(
        "/v1/profile", json={"summary": [{"id": "sum-1", "text": "Backend engineer"}], "skills": skills}
    )
    assert first.status_code == 200 and first.json()["outcome"] == "updated"
    assert first.json()["profileVersion"] == 1
    head = world.head()
    same = c.patch("/v1/profile", json={"summary": [{"id": "sum-1", "text": "  Backend   engineer "}]})
    assert same.json()["outcome"] == "no_change" and world.head() == head
    bad = c.patch("/v1/profile", json={"hobbies": "chess"})
    assert bad.status_code == 422 and world.head() == head
    # An unknown or malformed field anywhere is refused with each field path, and nothing is saved.
    wrong = c.patch(
        "/v1/profile",
        json={
            "experience": [{"id": "e1", "employer": "X", "title": "Y", "start": "2020", "colour": "red"}],
            "workAuthorization": {"countries": ["uk"], "requiresSponsorship": False},
        },
    )
    assert wrong.status_code == 422 and world.head() == head
    error = wrong.json()["error"]
    assert error["code"] == "invalid_profile"
    assert {f["path"] for f in error["fields"]} == {"experience.0.colour", "workAuthorization.countries.0"}


# -- apply review ------------------------------------------------------------------------------------
def test_review_decision_records_and_refuses_uncommitted_targets(world: ApiWorld) -> None:
    discover_job(world.store, "j1")
    world.project()
    c = world.client
    head = world.head()
    refused = c.post(
        "/v1/jobs/j1/apply-review/decision",
        json={"decision": "approve_submit", "materialsGeneration": 3, "profileVersion": 1,
              "applicationUrl": "https://jobs.example/j1"},
    )  # fmt: skip
    assert refused.status_code == 422 and _code(refused) == "invalid_review_decision"
    assert world.head() == head
    deferred = c.post("/v1/jobs/j1/apply-review/decision", json={"decision": "defer", "reason": "later"})
    assert deferred.status_code == 200 and deferred.json()["decision"] == "defer"
    assert world.head() == head + 1
    assert c.post("/v1/jobs/none/apply-review/decision", json={"decision": "defer"}).status_code == 404
