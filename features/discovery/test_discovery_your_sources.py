"""Steps of features/discovery/your_sources.feature: the real CLI (Typer's runner, in process) and the
real API (in-process client) over a real database; Discover is the worker's own activities, built by
the worker's composition root over the source registry, crawling the local sample board."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.testing import ActivityEnvironment
from typer.testing import CliRunner, Result

from jobctrl.activity_contracts.contracts import PlanSourcesInput, ProgressTick, SourceFamilyInput
from jobctrl.discovery.domain.search import SearchFilters
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.composition.sources import registry_catalog

pytestmark = pytest.mark.both_databases
scenarios("discovery/your_sources.feature")

EVERYTHING = SearchFilters()  # the default search accepts every posting


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@dataclass
class Cli:
    home: Path
    result: Result | None = None
    board_base: str = ""
    runs: list[set[str]] = field(default_factory=list)  # board paths requested per Discover run
    response: Any = None

    def run(self, line: str) -> Result:
        args = shlex.split(line.replace("{board}", self.board_base))
        assert args[0] == "jobctrl"
        self.result = CliRunner().invoke(app, args[1:])
        return self.result


@pytest.fixture
def cli(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JOBCTRL_HOME", str(home))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    return Cli(home)


@pytest.fixture
def api(db_url: str, clock: FixedClock) -> Iterator[TestClient]:
    application = create_app(ApiConfig(database_url=db_url, sse_poll_s=0.05, clock=clock))
    with TestClient(application, raise_server_exceptions=False) as client:
        yield client


@given("the sample job board is running", target_fixture="board_base")
def board_running(board: SampleJobBoard, cli: Cli) -> str:
    cli.board_base = board.base_url
    return board.base_url


def _discover(
    store: EventStore,
    cli: Cli,
    tmp_path: Path,
    search: SearchFilters = EVERYTHING,
    chosen: list[str] | None = None,
) -> None:
    comp = Composition.build(
        store.db, store, sources=registry_catalog(store), artifacts_root=tmp_path / "artifacts",
        search=lambda: search,
    )  # fmt: skip
    try:
        run = ActivityEnvironment().run
        execution = ExecutionRef("local", "discover-local", f"run-{len(cli.runs) + 1}")
        plan = run(comp.discovery.plan_discovery_sources, PlanSourcesInput(execution, list(chosen or [])))
        for n, family in enumerate(plan.families):
            total = len(plan.families) + 2
            run(
                comp.discovery.discovery_source_family,
                SourceFamilyInput(execution, family, ProgressTick(n, total), source_ids=list(chosen or [])),
            )
    finally:
        comp.close()
    cli.runs.append(set())


@when("Discover runs on my sources")
@given("Discover ran on my sources")
def discover(store: EventStore, board: SampleJobBoard, cli: Cli, tmp_path: Path) -> None:
    marker = len(board.server.requests)
    _discover(store, cli, tmp_path)
    cli.runs[-1] = _listings_since(board, marker)


def _listings_since(board: SampleJobBoard, marker: int) -> set[str]:
    prefixes = ("/v1/boards/", "/v0/postings/", "/posting-api/job-board/")
    return {r.path for r in board.server.requests[marker:] if r.path.startswith(prefixes)}


@when(parsers.parse('Discover runs on the source "{source_id}" only'))
def discover_one(store: EventStore, board: SampleJobBoard, cli: Cli, tmp_path: Path, source_id: str) -> None:
    marker = len(board.server.requests)
    _discover(store, cli, tmp_path, chosen=[source_id])
    cli.runs[-1] = _listings_since(board, marker)


@when(parsers.parse('Discover runs on my sources searching "{title}" in "{location}", remote accepted'))
def discover_searching(
    store: EventStore, board: SampleJobBoard, cli: Cli, tmp_path: Path, title: str, location: str
) -> None:
    marker = len(board.server.requests)
    _discover(store, cli, tmp_path, SearchFilters(keywords=(title,), locations=(location,)))
    cli.runs[-1] = _listings_since(board, marker)


@when(parsers.parse('I run "{line}"'))
def run_line(cli: Cli, line: str) -> None:
    cli.run(line)


@given(parsers.parse('I added "{first}" and "{second}" at the board'))
def added_two(cli: Cli, first: str, second: str) -> None:
    names = {
        "globex": "Globex Corporation",
        "initech": "Initech",
        "hooli": "Hooli",
        "northwind": "Northwind Analytics",
    }
    for spec in (first, second):
        kind, token = spec.split()
        result = cli.run(f"jobctrl sources add {kind} {token} --name '{names[token]}' --api-base {{board}}")
        assert result.exit_code == 0, result.output


@then(parsers.parse('it exits {code:d} saying "{text}"'))
def exits_saying(cli: Cli, code: int, text: str) -> None:
    assert cli.result is not None
    assert cli.result.exit_code == code, cli.result.output
    assert text in " ".join(cli.result.output.split()), cli.result.output


def _listed(cli: Cli) -> list[dict[str, Any]]:
    result = cli.run("jobctrl sources list --format json")
    assert result.exit_code == 0, result.output
    listed: list[dict[str, Any]] = json.loads(result.output)
    return listed


@then(
    parsers.parse('"jobctrl sources list --format json" lists "{source_id}" as {kind}, {state}, at the board')
)
def lists_one(cli: Cli, source_id: str, kind: str, state: str) -> None:
    [item] = _listed(cli)
    assert (item["source_id"], item["family"], item["state"]) == (source_id, kind, state)
    assert item["base_url"] == item["api_base"] == cli.board_base


@then(parsers.parse('"jobctrl sources list --format json" lists only "{source_id}"'))
def lists_only(cli: Cli, source_id: str) -> None:
    assert [i["source_id"] for i in _listed(cli)] == [source_id]


@then(parsers.parse('it lists "{first}" and "{second}"'))
def lists_two(cli: Cli, first: str, second: str) -> None:
    assert cli.result is not None and cli.result.exit_code == 0, cli.result and cli.result.output
    assert sorted(i["source_id"] for i in json.loads(cli.result.output)) == sorted([first, second])


def _jobs(store: EventStore) -> list[Any]:
    return [store.registry.decode(r) for r in store.read_all(limit=5000, types=["JobDiscovered"])]


@then(parsers.parse('{count:d} new jobs from "{employer}" were discovered'))
def new_jobs(store: EventStore, count: int, employer: str) -> None:
    jobs = _jobs(store)
    assert len(jobs) == count and {j.employer for j in jobs} == {employer}


@then(parsers.parse('only the board "{board_name}" was crawled'))
@then(parsers.parse('only the board "{board_name}" was crawled the second time'))
def only_board(cli: Cli, board_name: str) -> None:
    [path] = cli.runs[-1]
    assert board_name in path.split("/"), cli.runs


@then(parsers.parse('the jobs from "{employer}" are still there'))
def jobs_stay(store: EventStore, employer: str) -> None:
    assert sum(j.employer == employer for j in _jobs(store)) == 8


@then(parsers.parse('removing "{source_id}" again says "{text}"'))
def remove_again(cli: Cli, source_id: str, text: str) -> None:
    result = cli.run(f"jobctrl sources remove {source_id}")
    assert result.exit_code == 0 and text in result.output, result.output


@then(parsers.parse('removing "{source_id}" exits 2 saying "{code}"'))
def remove_unknown(cli: Cli, store: EventStore, source_id: str, code: str) -> None:
    head = store.head_position()
    result = cli.run(f"jobctrl sources remove {source_id}")
    assert result.exit_code == 2 and code in result.output, result.output
    assert store.head_position() == head


@then("the job log is empty")
def log_empty(store: EventStore) -> None:
    assert store.head_position() == 0


@then(parsers.parse("the source registry holds {count:d} SourceConfigured events"))
def configured_events(store: EventStore, count: int) -> None:
    assert len(store.read_all(limit=100, types=["SourceConfigured"])) == count


@when(
    parsers.parse(
        'the API is sent POST /v1/sources with kind "{kind}", URL "{url}" and the board as API base'
    )
)
def api_post(api: TestClient, cli: Cli, kind: str, url: str) -> None:
    body = {"kind": kind, "tokenOrUrl": url, "apiBase": cli.board_base}
    cli.response = api.post("/v1/sources", json=body)


@then(parsers.parse('the API answers 201 with source "{source_id}" of board "{board_name}"'))
def api_created(cli: Cli, source_id: str, board_name: str) -> None:
    assert cli.response.status_code == 201, cli.response.text
    body = cli.response.json()
    assert (body["sourceId"], body["board"], body["state"]) == (source_id, board_name, "active")
    assert body["baseUrl"] == cli.board_base


@then(
    parsers.parse(
        'the API answers 201 with the broad-board source "{source_id}" searching "{keyword}" in "{location}"'
    )
)
def api_broad_board(cli: Cli, source_id: str, keyword: str, location: str) -> None:
    assert cli.response.status_code == 201, cli.response.text
    body = cli.response.json()
    assert (body["sourceId"], body["kind"], body["board"]) == (source_id, "jobspy", "indeed,linkedin")
    assert (body["keywords"], body["locations"], body["resultsWanted"], body["hoursOld"]) == (
        [keyword],
        [location],
        15,
        48,
    )
    assert (body["robots"], body["policyId"], body["apiBase"]) == (
        "not_gated_library_owns_http",
        "broad_board",
        None,
    )


@then(parsers.parse('GET /v1/sources lists "{source_id}"'))
def api_lists(api: TestClient, source_id: str) -> None:
    assert [i["sourceId"] for i in api.get("/v1/sources").json()["items"]] == [source_id]


@when(parsers.parse("the API is sent DELETE /v1/sources/{source_id}"))
def api_delete(api: TestClient, cli: Cli, source_id: str) -> None:
    cli.response = api.delete(f"/v1/sources/{source_id}")


@then("the API answers 200 and GET /v1/sources lists nothing")
def api_deleted(api: TestClient, cli: Cli) -> None:
    assert cli.response.status_code == 200 and cli.response.json()["removed"] is True
    assert api.get("/v1/sources").json()["items"] == []


@then(parsers.parse('DELETE /v1/sources/{source_id} answers 404 "{code}"'))
def api_delete_unknown(api: TestClient, source_id: str, code: str) -> None:
    response = api.delete(f"/v1/sources/{source_id}")
    assert response.status_code == 404 and response.json()["error"]["code"] == code


@when(parsers.parse("the API is sent POST /v1/sources with the body {body}"))
def api_post_body(api: TestClient, cli: Cli, body: str) -> None:
    cli.response = api.post("/v1/sources", content=body, headers={"Content-Type": "application/json"})


@then(parsers.parse('the API answers 422 "{code}" and the job log is empty'))
def api_refused(cli: Cli, store: EventStore, code: str) -> None:
    assert cli.response.status_code == 422, cli.response.text
    assert cli.response.json()["error"]["code"] == code
    assert store.head_position() == 0


@given(parsers.parse('a sources.json in the home naming the boards "{first}" and "{second}"'))
def legacy_file(cli: Cli, board: SampleJobBoard, first: str, second: str) -> None:
    configs = [s for s in board.sources() if s.board in (first, second)]
    rows = [
        {"source_id": c.source_id, "ats_kind": c.ats_kind, "board": c.board, "employer": c.employer,
         "base_url": c.base_url}
        for c in configs
    ]  # fmt: skip
    (cli.home / "sources.json").write_text(json.dumps(rows))


@then("the home holds sources.json.imported and no sources.json")
def legacy_retired(cli: Cli) -> None:
    assert not (cli.home / "sources.json").exists()
    assert (cli.home / "sources.json.imported").exists()


@then(
    parsers.parse(
        'every job discovered says "{title}" in its title or description and is in {location} or remote'
    )
)
def jobs_match(store: EventStore, title: str, location: str) -> None:
    jobs = _jobs(store)
    assert jobs
    for job in jobs:
        where = str(job.metadata["location"]).lower()
        text = f"{job.metadata['title']} {job.metadata['description']}".lower()
        assert title.lower() in text
        assert location.lower() in where or "remote" in where


@then(parsers.parse('at least one job came from each of "{first}" and "{second}"'))
def both_families(store: EventStore, first: str, second: str) -> None:
    assert {j.employer for j in _jobs(store)} == {first, second}
