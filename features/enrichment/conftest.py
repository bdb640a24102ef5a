"""Shared fixtures and steps for the enrichment scenarios: a store, a fixed clock and a local web site
served over real HTTP, fetched by the real httpx adapter."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx
import pytest
from pytest_bdd import given, parsers, then, when

from jobctrl.enrichment.adapters.httpx_fetcher import HttpxPageFetcher
from jobctrl.enrichment.domain.aggregate import PostingEnrichment
from jobctrl.enrichment.domain.readiness import EnrichmentOutcome
from jobctrl.enrichment.events import JobEnriched, PostingContentSnapshotFailed
from jobctrl.enrichment.use_cases.enrich_job import EnrichJob, enrich_job
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.testing.http_server import serving

DUTIES = [
    "Design and operate the event-sourced services that power our job pipeline.",
    "Own the PostgreSQL schema, its migrations and the read models built on top of it.",
    "Work with product to turn hiring workflows into clear, testable domain rules.",
    "Review code, mentor engineers and keep our incident runbooks current.",
    "Improve observability across Temporal workers, queues and HTTP APIs.",
    "Help plan capacity for the crawling fleet and its politeness budgets.",
]


@dataclass
class Site:
    base: str = ""
    pages: dict[str, tuple[int, str]] = field(default_factory=dict)
    hits: list[str] = field(default_factory=list)
    robots: str = "User-agent: *\nDisallow: /linkedin/\nDisallow: /blocked-careers/\n"


def json_ld_page(*, apply_link: bool = True, valid_through: str = "2099-01-01", variant: str = "") -> str:
    description = (
        "<p>About the role" + variant + "</p><ul>" + "".join(f"<li>{d}</li>" for d in DUTIES) + "</ul>"
    )
    posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": "Backend Engineer",
               "description": description, "validThrough": valid_through}  # fmt: skip
    link = '<a class="btn" href="https://ats.example/apply/77">Apply now</a>' if apply_link else ""
    return (
        f'<html><head><script type="application/ld+json">{json.dumps(posting)}</script></head>'
        f"<body><h1>Backend Engineer</h1>{link}</body></html>"
    )


def article_page(paragraphs: int) -> str:
    body = "".join(
        f"<p>{d} We value craft, ownership and kindness in paragraph {i}.</p>"
        for i, d in enumerate(DUTIES[:paragraphs])
    )
    return (
        "<html><head><title>Job</title></head><body><nav>Home</nav>"
        f"<article><h1>Backend Engineer</h1>{body}</article></body></html>"
    )


@pytest.fixture
def site() -> Iterator[Site]:
    state = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.hits.append(self.path)
            if self.path == "/robots.txt":
                status, body, kind = 200, state.robots, "text/plain"
            else:
                status, body = state.pages.get(self.path, (404, "gone"))
                kind = "text/html; charset=utf-8"
            raw = body.encode()
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, format: str, *args: object) -> None:
            return

    with serving(Handler) as base:
        state.base = base
        yield state


@dataclass
class World:
    """What an enrichment scenario has seen: each job's enrichment outcome, the last refusal, and
    whether each active-state report changed the state."""

    outcomes: dict[str, EnrichmentOutcome] = field(default_factory=dict)
    error: JobCtrlError | None = None
    changes: list[bool] = field(default_factory=list)


@pytest.fixture
def world() -> World:
    return World()


def run_enrich(store: EventStore, clock: FixedClock, site: Site, world: World, job_id: str, path: str,
               source: str = "acme-careers", source_description: str | None = None) -> None:  # fmt: skip
    async def go() -> EnrichmentOutcome:
        async with httpx.AsyncClient(timeout=2.0) as client:
            command = EnrichJob(job_id, f"{site.base}{path}", source, source_description)
            return await enrich_job(command, store=store, fetcher=HttpxPageFetcher(client), clock=clock)

    try:
        world.outcomes[job_id] = asyncio.run(go())
    except JobCtrlError as exc:
        world.error = exc


def enrichment_of(store: EventStore, job_id: str) -> PostingEnrichment:
    return AggregateRepository.for_class(store, PostingEnrichment).get(job_id)


def events_of(store: EventStore, job_id: str) -> list[Any]:
    return [store.registry.decode(r) for r in store.read_stream(PostingEnrichment.stream_id_for(job_id))]


@given(parsers.parse('the posting page "{path}" carries JobPosting JSON-LD'))
def page_json_ld(site: Site, path: str) -> None:
    site.pages[path] = (200, json_ld_page())


@given(parsers.parse('the posting page "{path}" carries JobPosting JSON-LD but no apply link'))
def page_json_ld_no_apply(site: Site, path: str) -> None:
    site.pages[path] = (200, json_ld_page(apply_link=False))


@given(parsers.parse('the posting page "{path}" is a plain article'))
def page_article(site: Site, path: str) -> None:
    site.pages[path] = (200, article_page(6))


@given(parsers.parse('the posting page "{path}" holds only a short blurb'))
def page_sparse(site: Site, path: str) -> None:
    site.pages[path] = (200, article_page(1))


@given(parsers.parse('job "{job_id}" was enriched from "{path}"'))
@given(parsers.parse('job "{job_id}" was enriched from "{path}" for source "{source}"'))
@when(parsers.parse('job "{job_id}" is enriched from "{path}"'))
@when(parsers.parse('job "{job_id}" is enriched from "{path}" for source "{source}"'))
def enriched(store: EventStore, clock: FixedClock, site: Site, world: World, job_id: str, path: str,
             source: str = "acme-careers") -> None:  # fmt: skip
    run_enrich(store, clock, site, world, job_id, path, source)


@then(parsers.parse('the outcome of "{job_id}" is "{status}" blocked by "{blockers}"'))
def outcome_blocked(world: World, job_id: str, status: str, blockers: str) -> None:
    outcome = world.outcomes[job_id]
    assert outcome.status.value == status
    assert outcome.blocked_by_codes == blockers.split(",")
    assert not outcome.tailor_may_proceed


@then(parsers.parse('the outcome of "{job_id}" is "{status}" with nothing blocking Tailor'))
def outcome_clear(world: World, job_id: str, status: str) -> None:
    outcome = world.outcomes[job_id]
    assert outcome.status.value == status and outcome.blocked_by == ()
    assert outcome.tailor_may_proceed


@then(parsers.parse('the site was never asked for "{path}"'))
def never_asked(site: Site, path: str) -> None:
    assert path not in site.hits


@then(parsers.parse('the outcome of "{job_id}" is "{status}" with failure "{failure}"'))
def outcome_failed(world: World, job_id: str, status: str, failure: str) -> None:
    outcome = world.outcomes[job_id]
    assert outcome.status.value == status and outcome.failure is not None and outcome.failure.value == failure
    assert not outcome.tailor_may_proceed


@then(parsers.parse('job "{job_id}" recorded a failed snapshot "{error_class}" that is not retryable'))
def failed_snapshot(store: EventStore, job_id: str, error_class: str) -> None:
    [failed] = [e for e in events_of(store, job_id) if isinstance(e, PostingContentSnapshotFailed)]
    assert failed.error_class == error_class and failed.retryable is False
    assert not [e for e in events_of(store, job_id) if isinstance(e, JobEnriched)]
