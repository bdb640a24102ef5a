"""Every run of a workflow id is reachable (ADR 0271): a rerun of Discover keeps the deterministic
workflow id and gets a new run id, and ``GET /v1/workflow-runs/{id}`` shows only the latest; the
earlier ones are listed by ``/runs`` and addressed by ``?runId=``, from ``workflow_run_history``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from jobctrl.kernel.store import Database, open_database
from jobctrl.projections.read_models.workflow_run_history import workflow_run_history
from jobctrl.runtime.reconcile.runs import open_runs
from jobctrl.testing.runtime.api_seed import complete_run, start_run
from jobctrl.testing.runtime.read_models import differing_read_models

from .api_world import ApiWorld, api_world

pytestmark = pytest.mark.both_databases


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[ApiWorld]:
    for w in api_world(db_url, database):
        start_run(w.store, "discover-local", "r1")
        complete_run(w.store, "discover-local", "r1")
        start_run(w.store, "discover-local", "r2")  # the rerun: same workflow id, a new run id
        start_run(w.store, "prep-x", "p1", workflow_type="JobPreparationWorkflow")
        w.project()
        yield w


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Database]:
    db = open_database(f"sqlite:///{tmp_path / 'fresh.db'}")
    yield db
    db.dispose()


def _code(response: object) -> str:
    return str(response.json()["error"]["code"])  # type: ignore[attr-defined]


def test_the_latest_run_is_the_default_and_every_run_is_listed_newest_first(world: ApiWorld) -> None:
    latest = world.client.get("/v1/workflow-runs/discover-local").json()
    assert (latest["runId"], latest["status"], latest["cancelable"]) == ("r2", "in_progress", True)
    page = world.client.get("/v1/workflow-runs/discover-local/runs").json()
    assert page["total"] == 2
    assert [(r["runId"], r["status"], r["phase"], r["cancelable"]) for r in page["items"]] == [
        ("r2", "in_progress", "discovering", True),
        ("r1", "succeeded", "completed", False),
    ]
    one = world.client.get("/v1/workflow-runs/discover-local/runs?limit=1&offset=1").json()
    assert [r["runId"] for r in one["items"]] == ["r1"] and one["total"] == 2


def test_an_earlier_run_is_addressed_by_its_run_id(world: ApiWorld) -> None:
    earlier = world.client.get("/v1/workflow-runs/discover-local?runId=r1").json()
    assert (earlier["runId"], earlier["status"], earlier["cancelable"]) == ("r1", "succeeded", False)
    assert [(t["kind"], t.get("runId")) for t in earlier["timeline"]] == [("started", "r1"), ("closed", "r1")]
    latest = world.client.get("/v1/workflow-runs/discover-local?runId=r2").json()
    assert (latest["runId"], latest["status"], latest["cancelable"]) == ("r2", "in_progress", True)
    assert [t["kind"] for t in latest["timeline"]] == ["started"]  # its own timeline, not the id's


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/v1/workflow-runs/discover-local?runId=r9", 404, "workflow_run_not_found"),
        ("/v1/workflow-runs/prep-x?runId=r1", 404, "workflow_run_not_found"),  # r1 is another id's
        ("/v1/workflow-runs/none/runs", 404, "workflow_run_not_found"),
        ("/v1/workflow-runs/discover-local?runId=no%20spaces", 422, "invalid_request"),
        ("/v1/workflow-runs/discover-local/runs?limit=0", 422, "invalid_request"),
    ],
)
def test_an_unknown_or_malformed_run_is_a_typed_error(
    world: ApiWorld, url: str, status: int, code: str
) -> None:
    head = world.head()
    response = world.client.get(url)
    assert (response.status_code, _code(response)) == (status, code)
    assert world.head() == head


def test_the_history_equals_a_rebuild_and_heals_when_its_rows_are_lost(
    world: ApiWorld, fresh: Database
) -> None:
    assert differing_read_models(world.db, fresh) == []
    with world.db.write() as conn:  # as on a database upgraded to p0012: the table starts empty
        conn.execute(sa.delete(workflow_run_history))
    world.project()  # start-up healing finds it empty below the watermark and rebuilds it
    page = world.client.get("/v1/workflow-runs/discover-local/runs").json()
    assert [r["runId"] for r in page["items"]] == ["r2", "r1"]


def test_the_openapi_document_publishes_both(world: ApiWorld) -> None:
    paths = world.client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/v1/workflow-runs/{workflow_id}/runs"]
    params = {p["name"]: p["in"] for p in paths["/v1/workflow-runs/{workflow_id}"]["get"]["parameters"]}
    assert params == {"workflow_id": "path", "runId": "query"}


def test_the_reconciler_sees_a_run_left_open_behind_a_rerun(world: ApiWorld) -> None:
    """An earlier run never closed (its worker died) and a rerun of the same id: the latest-run table
    shows only the rerun, the reconciler's candidates are both (each is described by its run id)."""
    start_run(world.store, "discover-x", "a1")
    start_run(world.store, "discover-x", "a2")
    world.project()
    candidates = {(r.workflow_id, r.run_id) for r in open_runs(world.store)}
    assert candidates == {
        ("discover-local", "r2"),
        ("discover-x", "a1"),
        ("discover-x", "a2"),
        ("prep-x", "p1"),
    }
