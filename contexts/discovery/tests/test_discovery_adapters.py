"""Adapter parsing against recorded-format payloads (shapes as the public APIs return them)."""

from __future__ import annotations

import json

import pytest

from jobctrl.discovery.adapters.ashby import parse_ashby
from jobctrl.discovery.adapters.base import MalformedSourceResponse, SourceConfig
from jobctrl.discovery.adapters.greenhouse import parse_greenhouse
from jobctrl.discovery.adapters.jsonld import parse_job_posting_page
from jobctrl.discovery.adapters.lever import parse_lever
from jobctrl.kernel.errors import ConfigurationError

GREENHOUSE = {
    "jobs": [
        {
            "absolute_url": "https://boards.greenhouse.io/acme/jobs/4012345?gh_src=abc",
            "data_compliance": [{"type": "gdpr", "requires_consent": False, "retention_period": None}],
            "internal_job_id": 3001,
            "location": {"name": "Remote - US"},
            "metadata": None,
            "id": 4012345,
            "updated_at": "2026-02-20T04:00:00-05:00",
            "requisition_id": "REQ-1",
            "title": "Senior Backend Engineer",
            "content": "&lt;p&gt;Build &amp;amp; run services.&lt;/p&gt;",
            "departments": [{"id": 1, "name": "Engineering", "parent_id": None, "child_ids": []}],
            "offices": [
                {"id": 2, "name": "Remote", "location": "Remote", "parent_id": None, "child_ids": []}
            ],
        }
    ],
    "meta": {"total": 1},
}
LEVER = [
    {
        "id": "5ac21346-8e0c-4494-8e7a-3eb92ff77902",
        "text": "Data Engineer",
        "hostedUrl": "https://jobs.lever.co/initech/5ac21346-8e0c-4494-8e7a-3eb92ff77902",
        "applyUrl": "https://jobs.lever.co/initech/5ac21346-8e0c-4494-8e7a-3eb92ff77902/apply",
        "createdAt": 1771578000000,
        "categories": {
            "commitment": "Full-time",
            "department": "Data",
            "location": "London, UK",
            "team": "Data",
        },
        "description": "<div>Pipelines.</div>",
        "descriptionPlain": "Pipelines.",
        "lists": [{"text": "Requirements", "content": "<li>SQL</li><li>dbt</li>"}],
        "additional": "",
        "additionalPlain": "Hybrid.",
    }
]
ASHBY = {
    "apiVersion": "1",
    "jobs": [
        {
            "id": "f1e2d3c4-0000-4000-8000-000000000001",
            "title": "Product Designer",
            "location": "Berlin, Germany",
            "secondaryLocations": [],
            "department": "Design",
            "team": "Design",
            "isListed": True,
            "isRemote": False,
            "descriptionHtml": "<p>Design.</p>",
            "descriptionPlain": "Design.",
            "publishedAt": "2026-02-18T09:00:00.000+00:00",
            "employmentType": "FullTime",
            "jobUrl": "https://jobs.ashbyhq.com/hooli/f1e2d3c4-0000-4000-8000-000000000001",
            "applyUrl": "https://jobs.ashbyhq.com/hooli/f1e2d3c4-0000-4000-8000-000000000001/application",
        },
        {
            "id": "hidden",
            "title": "Unlisted",
            "jobUrl": "https://jobs.ashbyhq.com/hooli/hidden",
            "isListed": False,
        },
    ],
}


def _config(kind: str, **kw: object) -> SourceConfig:
    return SourceConfig(f"{kind}-x", kind, "x", "Acme", "http://127.0.0.1", **kw)  # type: ignore[arg-type]


def test_greenhouse_content_is_unescaped_and_ids_kept() -> None:
    [posting] = parse_greenhouse(GREENHOUSE, _config("greenhouse"))
    assert posting.native_id == "4012345" and posting.ats_kind == "greenhouse"
    assert posting.description == "<p>Build &amp; run services.</p>"
    assert (posting.location, posting.employer) == ("Remote - US", "Acme")


def test_lever_description_includes_lists_and_additional_text() -> None:
    [posting] = parse_lever(LEVER, _config("lever"))
    assert (
        "Requirements" in posting.description
        and "dbt" in posting.description
        and "Hybrid." in posting.description
    )
    assert posting.apply_url is not None and posting.apply_url.endswith("/apply")


def test_ashby_skips_unlisted_jobs() -> None:
    postings = parse_ashby(ASHBY, _config("ashby"))
    assert [p.title for p in postings] == ["Product Designer"]


def test_filters_apply_to_title_and_location() -> None:
    assert parse_lever(LEVER, _config("lever", title_filters=("designer",))) == []
    assert (
        len(parse_lever(LEVER, _config("lever", title_filters=("data",), location_filters=("london",)))) == 1
    )


@pytest.mark.parametrize(
    ("parse", "payload"),
    [
        (parse_greenhouse, {"jobs": {"id": 1}}),
        (parse_greenhouse, {"jobs": [{"title": "no id"}]}),
        (parse_greenhouse, []),
        (parse_lever, {"postings": []}),
        (parse_lever, [{"id": "1", "hostedUrl": "u", "categories": "oops"}]),
        (parse_ashby, {"jobs": [1, 2]}),
        (parse_greenhouse, {"jobs": [{"id": i, "absolute_url": "u"} for i in range(2001)]}),
    ],
)
def test_wrong_shapes_are_malformed_responses(parse: object, payload: object) -> None:
    with pytest.raises(MalformedSourceResponse) as err:
        parse(payload, _config("greenhouse"))  # type: ignore[operator]
    assert err.value.code == "source_unavailable"


def test_texts_are_bounded() -> None:
    job = dict(GREENHOUSE["jobs"][0])  # type: ignore[index]
    job["title"] = "T" * 5000
    job["content"] = "word " * 10000
    [posting] = parse_greenhouse({"jobs": [job]}, _config("greenhouse"))
    assert len(posting.title) <= 300 and len(posting.description) <= 16000


def test_json_ld_in_a_graph_is_found_and_broken_blocks_are_skipped() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "Organization", "name": "Acme Robotics"},
            {
                "@type": "JobPosting",
                "title": "Robotics Engineer",
                "description": "Build robots.",
                "identifier": {"@type": "PropertyValue", "value": "R-7"},
                "hiringOrganization": {"@type": "Organization", "name": "Acme Robotics"},
                "jobLocation": [
                    {"@type": "Place", "address": {"addressLocality": "Austin", "addressRegion": "TX"}}
                ],
                "jobLocationType": "TELECOMMUTE",
                "url": "/careers/acme/jobs/robotics-engineer",
            },
        ],
    }
    page = (
        '<html><head><script type="application/ld+json">{broken</script>'
        f'<script type="application/ld+json">{json.dumps(graph)}</script></head><body></body></html>'
    )
    posting = parse_job_posting_page(
        page, "http://127.0.0.1:9/careers/acme/jobs/robotics-engineer", _config("other")
    )
    assert posting is not None
    assert (posting.native_id, posting.employer, posting.location) == (
        "R-7",
        "Acme Robotics",
        "Austin, TX; Remote",
    )
    assert posting.canonical_url == "http://127.0.0.1:9/careers/acme/jobs/robotics-engineer"


def test_a_page_without_a_job_posting_yields_nothing() -> None:
    assert parse_job_posting_page("<html><body>Hello</body></html>", "http://x/y", _config("other")) is None


def test_public_boards_default_to_the_vendor_apis() -> None:
    config = SourceConfig.public_board("lever", "initech", "Initech", title_filters=("engineer",))
    assert (config.source_id, config.base_url, config.title_filters) == (
        "lever-initech",
        "https://api.lever.co",
        ("engineer",),
    )
    with pytest.raises(ConfigurationError):
        SourceConfig.public_board("other", "acme", "Acme")
