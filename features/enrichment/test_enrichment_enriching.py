"""Steps for enriching_a_job.feature and snapshots.feature."""

from __future__ import annotations

import asyncio

import httpx
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.enrichment.adapters.httpx_fetcher import HttpxPageFetcher
from jobctrl.enrichment.events import EnrichmentFailed, JobEnriched, PostingContentSnapshotCaptured
from jobctrl.enrichment.use_cases.enrich_job import EnrichJob, enrich_job
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore

from .conftest import DUTIES, Site, World, enrichment_of, events_of, json_ld_page, run_enrich

scenarios("enrichment/enriching_a_job.feature", "enrichment/snapshots.feature")


@given(parsers.parse('the posting page "{path}" is empty'))
def page_empty(site: Site, path: str) -> None:
    site.pages[path] = (200, "<html><body></body></html>")


@given(parsers.parse('the posting page "{path}" answers 503'))
def page_503(site: Site, path: str) -> None:
    site.pages[path] = (503, "busy")


@when(parsers.parse('the posting page "{path}" changes its description'))
def page_changes(site: Site, path: str) -> None:
    site.pages[path] = (200, json_ld_page(variant=" (updated)"))


@when(parsers.parse('the posting page "{path}" gains JobPosting JSON-LD'))
def page_gains(site: Site, path: str) -> None:
    site.pages[path] = (200, json_ld_page())


@when(parsers.parse('job "{job_id}" is enriched from its source payload'))
def from_payload(store: EventStore, clock: FixedClock, site: Site, world: World, job_id: str) -> None:
    payload = "<ul>" + "".join(f"<li>{d}</li>" for d in DUTIES) + "</ul>"
    run_enrich(store, clock, site, world, job_id, "/jobs/5", "greenhouse:acme", payload)


@then(parsers.parse('job "{job_id}" has snapshot version {version:d} from tier "{tier}"'))
def snapshot_version(store: EventStore, job_id: str, version: int, tier: str) -> None:
    enrichment = enrichment_of(store, job_id)
    assert enrichment.snapshot_version == version
    assert enrichment.tier is not None and enrichment.tier.value == tier


@then(parsers.parse('the enriched description of "{job_id}" contains "{text}"'))
def description_contains(store: EventStore, job_id: str, text: str) -> None:
    [enriched] = [e for e in events_of(store, job_id) if isinstance(e, JobEnriched)]
    assert text in enriched.full_description


@then(parsers.parse('the application target of "{job_id}" is "{target}" at "{url}"'))
def application_target(store: EventStore, world: World, job_id: str, target: str, url: str) -> None:
    assert world.outcomes[job_id].application_target.value == target
    [enriched] = [e for e in events_of(store, job_id) if isinstance(e, JobEnriched)]
    assert enriched.application_url == url


@then(parsers.parse('the error is retryable "{code}"'))
def retryable_error(world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code and world.error.retryable


@then(parsers.parse('job "{job_id}" recorded enrichment failures with attempts "{attempts}"'))
def failures(store: EventStore, job_id: str, attempts: str) -> None:
    numbers = [e.attempt_number for e in events_of(store, job_id) if isinstance(e, EnrichmentFailed)]
    assert numbers == [int(a) for a in attempts.split(",")]


@then(parsers.parse('job "{job_id}" has {count:d} captured snapshot'))
def captured_count(store: EventStore, job_id: str, count: int) -> None:
    assert (
        len([e for e in events_of(store, job_id) if isinstance(e, PostingContentSnapshotCaptured)]) == count
    )


@then(parsers.parse('the two snapshots of "{job_id}" have different references'))
def different_refs(store: EventStore, job_id: str) -> None:
    refs = [e.snapshot_ref for e in events_of(store, job_id) if isinstance(e, PostingContentSnapshotCaptured)]
    assert len(refs) == 2 and refs[0] != refs[1]


@then(parsers.parse('the application target of "{job_id}" is "{target}" with no URL'))
def application_target_missing(store: EventStore, world: World, job_id: str, target: str) -> None:
    application_target(store, world, job_id, target, "")


@when(parsers.parse('job "{job_id}" is enriched from posting URL "{url}"'))
def enrich_raw_url(store: EventStore, clock: FixedClock, world: World, job_id: str, url: str) -> None:
    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await enrich_job(
                EnrichJob(job_id, url, "acme"), store=store, fetcher=HttpxPageFetcher(client), clock=clock
            )

    try:
        asyncio.run(go())
    except JobCtrlError as exc:
        world.error = exc


@then(parsers.parse('the request is refused with "{code}" and nothing is written'))
def refused(store: EventStore, world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code and not world.error.retryable
    assert store.head_position() == 0
