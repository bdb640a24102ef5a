"""Steps of features/discovery/families/smart_extract.feature (shared steps: this folder's conftest).

The careers site is a local server (port 0) serving fixture pages of several shapes: postings on the
careers page itself, linked posting pages, a sitemap, a posting page with text only, robots rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.testing import ActivityEnvironment

from jobctrl.activity_contracts.contracts import EnrichmentInput, ProgressTick
from jobctrl.discovery.sample_board.misbehaviour import BAD_ANSWERS
from jobctrl.discovery.sample_board.server import Route
from jobctrl.enrichment.domain.aggregate import PostingEnrichment
from jobctrl.enrichment.domain.readiness import EnrichBlock
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.composition.sources import registry_catalog

from .conftest import World, jobs

pytestmark = pytest.mark.both_databases

scenarios("discovery/families/smart_extract.feature")

_DUTIES = (
    "You will design and run the systems our customers rely on every day, review designs with your peers, "
    "mentor engineers, own incidents end to end and improve how we ship. "
)


def _html(body: str, title: str = "Careers") -> Route:
    page = f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    return Route(200, page.encode(), "text/html")


def _posting(title: str, employer: str, n: int, *, url: str = "") -> dict[str, object]:
    data: dict[str, object] = {
        "@type": "JobPosting", "title": title,
        "hiringOrganization": {"@type": "Organization", "name": employer},
        "description": f"<p>{title} #{n}. {_DUTIES * 2}</p>",
        "jobLocation": {"@type": "Place", "address": {"addressLocality": "Austin", "addressCountry": "US"}},
        "identifier": {"@type": "PropertyValue", "value": f"INI-{n}"},
    }  # fmt: skip
    if url:
        data["url"] = url
    return data


def _ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def _posting_pages(world: World, employer: str, count: int) -> list[str]:
    paths = []
    for n in range(1, count + 1):
        path = f"/careers/jobs/role-{n}"
        title = f"Engineer {n}"
        world.vendor.set_route(path, _html(f"<h1>{title}</h1>{_ld(_posting(title, employer, n))}", title))
        paths.append(path)
    world.listing = "/careers"
    return paths


@given(parsers.parse('a careers page carrying {count:d} JobPostings of "{employer}" in one graph'))
def page_with_graph(world: World, count: int, employer: str) -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [_posting(f"Engineer {n}", employer, n) for n in range(count)],
    }
    world.vendor.set_route("/careers", _html(_ld(graph)))
    world.listing = "/careers"


@given(
    parsers.parse(
        'a careers page linking to {count:d} posting pages of "{employer}", an about page and another site'
    )
)
def page_with_links(world: World, count: int, employer: str) -> None:
    links = "".join(f'<a href="{p}">Role</a>' for p in _posting_pages(world, employer, count))
    links += '<a href="/about">About</a><a href="https://elsewhere.example/careers/jobs/x">Partner</a>'
    world.vendor.set_route("/about", _html("<h1>About</h1>" + "<p>We make staplers.</p>" * 30))
    world.vendor.set_route("/careers", _html(f"<h1>Open roles</h1>{links}"))


@given(parsers.parse('a careers page linking to {count:d} posting pages of "{employer}"'))
def page_with_many_links(world: World, count: int, employer: str) -> None:
    links = "".join(f'<a href="{p}">Role</a>' for p in _posting_pages(world, employer, count))
    world.vendor.set_route("/careers", _html(f"<h1>Open roles</h1>{links}"))


_SITEMAP_ONLY = 'a careers page with no links and a sitemap listing {count:d} posting pages of "{employer}"'


@given(parsers.parse(_SITEMAP_ONLY + " and a blog page"))
def page_with_sitemap(world: World, count: int, employer: str) -> None:
    base = world.vendor.base_url
    urls = [base + p for p in _posting_pages(world, employer, count)] + [base + "/blog/2026/launch"]
    world.vendor.set_route("/blog/2026/launch", _html("<h1>Launch</h1>"))
    locs = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    sitemap = (
        f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    )
    world.vendor.set_route("/sitemap.xml", Route(200, sitemap.encode(), "application/xml"))
    world.vendor.set_route("/careers", _html("<h1>Careers</h1><p>Our roles are listed below.</p>"))


@given(
    parsers.parse(
        'a careers page linking to a posting page "{title}" with only text, and to a page with one line'
    )
)
def page_with_text_only(world: World, title: str) -> None:
    # About 300 characters: enough to be a posting, too few for the cascade to trust (400), though a
    # source's own description that long would be taken as is (200).
    text = f"<h1>{title}</h1><p>{_DUTIES}</p><p>{_DUTIES[:120]}</p>"
    world.vendor.set_route("/careers/jobs/night-shift", _html(f"<main>{text}</main>", title))
    world.vendor.set_route("/careers/jobs/closed", _html("<h1>Closed</h1><p>This role is filled.</p>"))
    links = '<a href="/careers/jobs/night-shift">Night</a><a href="/careers/jobs/closed">Closed</a>'
    world.vendor.set_route("/careers", _html(links))


@given(parsers.parse('a careers page carrying a broken JSON-LD block and 1 JobPosting of "{employer}"'))
def page_with_broken_block(world: World, employer: str) -> None:
    broken = '<script type="application/ld+json">{"@type": "JobPosting", "title": </script>'
    world.vendor.set_route("/careers", _html(broken + _ld(_posting("Engineer 1", employer, 1))))


@given("a careers page answering JSON")
def page_is_json(world: World) -> None:
    world.vendor.set_route("/careers", Route(200, b'{"jobs": []}'))


@given("the site's robots.txt disallows the second posting page")
def robots_second(world: World) -> None:
    world.vendor.set_route(
        "/robots.txt", Route(200, b"User-agent: *\nDisallow: /careers/jobs/role-2\n", "text/plain")
    )


@given(parsers.parse("the careers site answers {answer}"))
def site_answers(world: World, answer: str) -> None:
    routes = {
        "404 on the careers page": ("/careers", Route(404, b"not found", "text/html")),
        "503 on the careers page": ("/careers", BAD_ANSWERS["503"]),
        "slowly on the careers page": ("/careers", BAD_ANSWERS["slowly"]),
        "a huge careers page": ("/careers", Route(200, b"<p>" + b"x" * 2_100_000, "text/html")),
        "a robots.txt that disallows everything": (
            "/robots.txt",
            Route(200, b"User-agent: *\nDisallow: /\n"),
        ),
        "503 on a posting page": ("/careers/jobs/role-3", BAD_ANSWERS["503"]),
    }
    path, route = routes[answer]
    world.vendor.set_route(path, route)


@then(parsers.parse('{count:d} new jobs from "{employer}" were discovered, each read from its JSON-LD'))
def read_from_json_ld(world: World, store: EventStore, count: int, employer: str) -> None:
    found = [j for j in jobs(store) if j.employer == employer]
    assert len(found) == count, [j.metadata["title"] for j in found]
    assert {j.metadata["extraction"] for j in found} == {"json_ld"}
    assert all(j.metadata["sourceNativeId"].startswith("INI-") for j in found)
    assert world.errors == {}


@then("the about page and the other site were never requested")
def about_never(world: World) -> None:
    assert world.vendor.requests_to("/about") == []


@then("the blog page was never requested")
def blog_never(world: World) -> None:
    assert world.vendor.requests_to("/blog/2026/launch") == []


@then("the second posting page was never requested")
def second_never(world: World) -> None:
    assert world.vendor.requests_to("/careers/jobs/role-2") == []


@then(parsers.parse("the site was asked for at most {pages:d} pages"))
def at_most(world: World, pages: int) -> None:
    asked = [r for r in world.vendor.requests if r.path != "/robots.txt"]
    assert len(asked) <= pages, len(asked)


@then(parsers.parse('the job "{title}" is marked as read from its text, so enrichment reads its page itself'))
def marked_text(store: EventStore, title: str) -> None:
    [job] = [j for j in jobs(store) if j.metadata["title"] == title]
    assert job.metadata["extraction"] == "readable_text"
    assert "design and run the systems" in job.metadata["description"]


@when("the run's enrichment pass runs")
def enrichment_pass(store: EventStore, tmp_path: Path) -> None:
    """The worker's own enrichment activity over the run's members (the Discover step's run-1)."""
    comp = Composition.build(store.db, store, sources=registry_catalog(store), artifacts_root=tmp_path / "a")
    try:
        execution = ExecutionRef("local", "discover-local", "run-1")
        ActivityEnvironment().run(
            comp.enrichment.discovery_enrichment, EnrichmentInput(execution, ProgressTick(0, 0))
        )
    finally:
        comp.close()


@then(parsers.parse('the job "{title}" is enriched with low confidence and Tailor is blocked'))
def low_confidence(store: EventStore, title: str) -> None:
    [job] = [j for j in jobs(store) if j.metadata["title"] == title]
    enrichment = AggregateRepository.for_class(store, PostingEnrichment).get(job.job_id)
    assert enrichment.blocked_by == (EnrichBlock.LOW_CONFIDENCE,), enrichment.tier
