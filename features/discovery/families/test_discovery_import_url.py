"""Steps of features/discovery/families/import_url.feature (shared steps: this folder's conftest)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.events import DiscoveryExecutionMemberLinked
from jobctrl.discovery.sample_board.server import Route
from jobctrl.discovery.sample_board.vendors import workday_external_path
from jobctrl.discovery.use_cases.queued_imports import IMPORT_QUEUE, unprepared_imports
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.testing.stored import events_of

from .conftest import World, jobs

pytestmark = pytest.mark.both_databases

scenarios("discovery/families/import_url.feature")


def _page(body: str) -> Route:
    return Route(200, f"<!doctype html><html><body>{body}</body></html>".encode(), "text/html")


def _job_posting(title: str, employer: str) -> str:
    data = {
        "@context": "https://schema.org", "@type": "JobPosting", "title": title,
        "hiringOrganization": {"@type": "Organization", "name": employer},
        "description": f"<p>{title} at {employer}: build the platform, review designs, mentor.</p>",
        "jobLocation": {"@type": "Place", "address": {"addressLocality": "Austin", "addressCountry": "US"}},
        "identifier": {"@type": "PropertyValue", "value": "INI-1"},
    }  # fmt: skip
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


@given(parsers.parse('a careers page at "{path}" carrying a JobPosting "{title}" of "{employer}"'))
def careers_page(world: World, path: str, title: str, employer: str) -> None:
    world.vendor.set_route(path, _page(f"<h1>{title}</h1>{_job_posting(title, employer)}"))


@given(parsers.parse('a careers page at "{path}" carrying no JobPosting'))
def plain_page(world: World, path: str) -> None:
    world.vendor.set_route(path, _page("<h1>About us</h1><p>We make staplers.</p>"))


@given(parsers.parse('the careers site\'s robots.txt disallows "{prefix}"'))
def robots(world: World, prefix: str) -> None:
    world.vendor.set_route(
        "/robots.txt", Route(200, f"User-agent: *\nDisallow: {prefix}\n".encode(), "text/plain")
    )


@then(parsers.parse("the imported job is the stand-in's posting {n:d}"))
def imported_is(world: World, store: EventStore, n: int) -> None:
    [job] = jobs(store)
    expected = world.posts[n - 1]
    assert job.metadata["title"] == expected.title
    project = expected.description.split("This role's project: ")[1][:80]  # its own paragraph
    assert project in " ".join(job.metadata["description"].split())


@then("nothing was written")
def nothing_written(store: EventStore) -> None:
    assert store.head_position() == 0


@pytest.fixture
def api(db_url: str) -> Iterator[TestClient]:
    clock = FixedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    application = create_app(ApiConfig(database_url=db_url, sse_poll_s=0.05, clock=clock))
    with TestClient(application, raise_server_exceptions=False) as client:
        yield client


@when(parsers.parse('the API is sent POST /v1/jobs/import-url with "{url}" and the stand-in as API base'))
def api_import(world: World, api: TestClient, url: str) -> None:
    for n, p in enumerate(world.posts, start=1):
        url = url.replace(f"{{native:{n}}}", p.native_id).replace(
            f"{{workday_path:{n}}}", workday_external_path(p)
        )
    world.response = api.post("/v1/jobs/import-url", json={"url": url, "apiBase": world.vendor.base_url})


@then(
    parsers.parse('the API answers 201 with a new "{family}" job titled like the stand-in\'s posting {n:d}')
)
def api_created(world: World, family: str, n: int) -> None:
    assert world.response.status_code == 201, world.response.text
    body = world.response.json()
    assert (body["created"], body["family"], body["title"]) == (True, family, world.posts[n - 1].title)
    world.job_id = body["jobId"]


@then("the API answers 200 with the same job")
def api_same(world: World) -> None:
    assert world.response.status_code == 200, world.response.text
    body = world.response.json()
    assert (body["jobId"], body["created"], body["verdict"]) == (world.job_id, False, "same_job")


@then(parsers.parse('the API answers {status:d} "{code}"'))
def api_refused(world: World, status: int, code: str) -> None:
    assert world.response.status_code == status, world.response.text
    assert world.response.json()["error"]["code"] == code, world.response.text


@then(parsers.parse('its preparation is queued for the next Discover run, for "{reason}"'))
def api_queued(world: World, reason: str) -> None:
    assert world.response.json()["preparation"] == {
        "state": "queued",
        "reason": reason,
        "workflowId": None,
        "runId": None,
    }


def _imported_members(store: EventStore) -> list[tuple[str, str, str]]:
    [job] = jobs(store)
    assert job.metadata["importedUrl"].startswith("https://acme.wd5.myworkdayjobs.com/External/job/")
    linked = events_of(store, DiscoveryExecutionMemberLinked, limit=1000)
    return [(e.execution.temporal_run_id, e.job_id, e.cohort) for e in linked if e.job_id == job.job_id]


@then("the imported job is a member of that Discover run, observed in it")
def imported_member(store: EventStore) -> None:
    [(run, _job, cohort)] = _imported_members(store)
    assert (run, cohort) == ("run-1", "observed_this_run")


@then("the imported job is a member of the first Discover run only")
def imported_member_once(store: EventStore) -> None:
    assert [run for run, _job, _cohort in _imported_members(store)] == ["run-1"]


@dataclass
class PlanRead:
    found: list[str]
    reads: list[tuple[str, list[object]]]  # each SELECT on the log, with its bound values


@when("the next Discover run's plan looks for queued imports", target_fixture="plan_read")
def plan_reads(store: EventStore) -> PlanRead:
    reads: list[tuple[str, list[object]]] = []

    def seen(_conn: object, _cursor: object, statement: str, params: Any, *_rest: object) -> None:
        if "FROM job_events" in statement:
            reads.append((statement, list(params.values() if isinstance(params, dict) else params)))

    sa.event.listen(store.db.engine, "before_cursor_execute", seen)
    try:
        found = unprepared_imports(store)
    finally:
        sa.event.remove(store.db.engine, "before_cursor_execute", seen)
    return PlanRead(found, reads)


@then("it finds the imported job only")
def finds_imported(plan_read: PlanRead, store: EventStore) -> None:
    [imported] = [job.job_id for job in jobs(store) if job.metadata.get("importedUrl")]
    assert plan_read.found == [imported]


_BOUNDED = "it read only the import queue and the imported job's memberships, among {n:d} jobs in the log"


@then(parsers.parse(_BOUNDED))
def read_bounded(plan_read: PlanRead, store: EventStore, n: int) -> None:
    all_jobs = jobs(store)
    assert len(all_jobs) == n  # the Discover run's jobs are in the log, linked to its execution ...
    [imported] = [job.job_id for job in all_jobs if job.metadata.get("importedUrl")]
    others = {job.job_id for job in all_jobs} - {imported}
    assert len(plan_read.reads) == 2, plan_read.reads  # ... yet the plan read the queue, then one job
    (queue_sql, queue_args), (members_sql, members_args) = plan_read.reads
    assert "job_events.stream_id =" in queue_sql and IMPORT_QUEUE in queue_args
    assert "job_events.job_id IN" in members_sql and imported in members_args
    assert not others & set(members_args)
    assert all("job_events.position >" not in sql for sql, _args in plan_read.reads)  # no log scan
