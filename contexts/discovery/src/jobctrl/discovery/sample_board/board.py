"""The sample job board: every sample posting served in its own format from one local server.

Routes (``base`` is the server's URL):

* Greenhouse ``/v1/boards/{board}/jobs`` and detail pages ``/greenhouse/{board}/jobs/{id}``
* Lever ``/v0/postings/{site}`` and ``/lever/{site}/{id}``
* Ashby ``/posting-api/job-board/{name}`` and ``/ashby/{name}/{id}``
* Career pages ``/careers/{board}`` linking to ``/careers/{board}/jobs/{slug}`` (JSON-LD JobPosting)
* Application forms (``application_path``: ``<detail>/apply``, Ashby ``<detail>/application``, in the
  Greenhouse detail page itself); a POST is recorded (``server.posts``) and refused
* ``/robots.txt`` disallowing ``/careers/contoso/jobs/internal-``

Usage (tests and the demo)::

    with SampleJobBoard() as board:
        board.base_url, board.sources()  # SourceConfig for every board, pointing at this server
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.events import AtsKind
from jobctrl.discovery.sample_board.postings import DISALLOWED_PREFIX, SAMPLE_POSTINGS, SamplePosting
from jobctrl.discovery.sample_board.server import LocalHttpServer, Route
from jobctrl.discovery.sample_board.vendors import (
    install_smartrecruiters,
    install_workday,
    workday_external_path,
)

PUBLISHED = "2026-02-20T09:00:00Z"
WORKDAY_SITE = "External"  # the sample Workday employer's career site: {base}/External


def _html_page(title: str, body: str, head: str = "") -> bytes:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"{head}</head><body>{body}</body></html>"
    ).encode()


def _detail_path(p: SamplePosting) -> str:
    if p.format == "greenhouse":
        return f"/greenhouse/{p.board}/jobs/{p.native_id}"
    if p.format == "lever":
        return f"/lever/{p.board}/{p.native_id}"
    if p.format == "ashby":
        return f"/ashby/{p.board}/{p.native_id}"
    if p.format == "workday":
        return f"/{WORKDAY_SITE}{workday_external_path(p)}"
    if p.format == "smartrecruiters":
        return f"/sr/{p.board}/{p.native_id}-{p.slug}"
    return f"/careers/{p.board}/jobs/{p.slug}"


def application_path(p: SamplePosting) -> str:
    """Where a posting's application form lives (Greenhouse embeds it in the detail page)."""
    if p.format == "greenhouse":
        return _detail_path(p)
    return _detail_path(p) + ("/application" if p.format == "ashby" else "/apply")


#: A plain, honest application form (no scripts): what the apply dry run fills and never submits.
APPLICATION_FORM = """
<form id="application" method="post" action="/submit">
  <label for="applicant-name">Full name</label><input id="applicant-name" name="name">
  <label>Email <input type="email" name="email"></label>
  <label>Phone <input type="tel" name="phone"></label>
  <label>Resume / CV <input type="file" name="resume"></label>
  <label>Cover letter <textarea name="cover_letter"></textarea></label>
  <button type="submit">Submit application</button>
</form>
"""


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(s.strip())}.</p>" for s in text.split(". ") if s.strip())


def _greenhouse(base: str, board: str, posts: list[SamplePosting]) -> bytes:
    jobs: list[dict[str, object]] = [
        {
            "absolute_url": base + _detail_path(p),
            "data_compliance": [{"type": "gdpr", "requires_consent": False, "retention_period": None}],
            "internal_job_id": int(p.native_id) - 1_000_000,
            "location": {"name": p.location},
            "metadata": None,
            "id": int(p.native_id),
            "updated_at": "2026-02-20T04:00:00-05:00",
            "requisition_id": f"REQ-{p.native_id[-4:]}",
            "title": p.title,
            "company_name": p.employer,
            "first_published": "2026-02-18T04:00:00-05:00",
            "content": html.escape(_paragraphs(p.description)),
            "departments": [{"id": 11, "name": p.department, "parent_id": None, "child_ids": []}],
            "offices": [
                {"id": 21, "name": p.location, "location": p.location, "parent_id": None, "child_ids": []}
            ],
        }
        for p in posts
    ]
    return json.dumps({"jobs": jobs, "meta": {"total": len(jobs)}}).encode()


def _lever(base: str, posts: list[SamplePosting]) -> bytes:
    sentences = [p.description.split(". ") for p in posts]
    return json.dumps(
        [
            {
                "id": p.native_id,
                "text": p.title,
                "hostedUrl": base + _detail_path(p),
                "applyUrl": base + _detail_path(p) + "/apply",
                "createdAt": 1_771_578_000_000,
                "categories": {
                    "commitment": "Full-time",
                    "department": p.department,
                    "location": p.location,
                    "team": p.department,
                    "allLocations": [p.location],
                },
                "country": "US",
                "workplaceType": "remote" if "Remote" in p.location else "onsite",
                "description": _paragraphs(p.description),
                "descriptionPlain": p.description,
                "lists": [],
                "additional": "",
                "additionalPlain": "",
                "salaryDescription": "",
            }
            for p, _s in zip(posts, sentences, strict=True)
        ]
    ).encode()


def _ashby(base: str, posts: list[SamplePosting]) -> bytes:
    return json.dumps(
        {
            "apiVersion": "1",
            "jobs": [
                {
                    "id": p.native_id,
                    "title": p.title,
                    "department": p.department,
                    "team": p.department,
                    "employmentType": "FullTime",
                    "location": p.location,
                    "secondaryLocations": [],
                    "publishedAt": "2026-02-18T09:00:00.000+00:00",
                    "isListed": True,
                    "isRemote": "Remote" in p.location,
                    "workplaceType": "Remote" if "Remote" in p.location else "OnSite",
                    "address": {"postalAddress": {"addressLocality": p.location.split(",")[0]}},
                    "jobUrl": base + _detail_path(p),
                    "applyUrl": base + _detail_path(p) + "/application",
                    "descriptionHtml": _paragraphs(p.description),
                    "descriptionPlain": p.description,
                }
                for p in posts
            ],
        }
    ).encode()


def _json_ld(base: str, p: SamplePosting) -> str:
    city, _, country = p.location.partition(", ")
    data = {
        "@context": "https://schema.org",
        "@type": "JobPosting",
        "title": p.title,
        "description": p.description,
        "datePosted": "2026-02-18",
        "validThrough": "2026-05-18",
        "employmentType": "FULL_TIME",
        "identifier": {"@type": "PropertyValue", "name": p.employer, "value": p.native_id},
        "url": base + _detail_path(p),
        "directApplyUrl": base + application_path(p),
        "hiringOrganization": {"@type": "Organization", "name": p.employer},
        "jobLocation": {
            "@type": "Place",
            "address": {"@type": "PostalAddress", "addressLocality": city, "addressCountry": country},
        },
    }
    return json.dumps(data).replace("</", "<\\/")


class SampleJobBoard:
    """A running sample board (``start``/``stop`` or a context manager)."""

    def __init__(self, *, port: int = 0, postings: Sequence[SamplePosting] = SAMPLE_POSTINGS) -> None:
        self.server = LocalHttpServer(port=port)
        self.postings = tuple(postings)

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def start(self) -> SampleJobBoard:
        self.server.start()
        self._install_routes()
        return self

    def stop(self) -> None:
        self.server.stop()

    def __enter__(self) -> SampleJobBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def sources(self) -> list[SourceConfig]:
        """One SourceConfig per board (Northwind has its own career page too), all pointing here."""
        boards = {(p.format, p.board, p.employer) for p in self.postings}
        return [source_for(fmt, board, employer, self.base_url) for fmt, board, employer in sorted(boards)]

    def _install_routes(self) -> None:
        base = self.base_url
        robots = f"User-agent: *\nDisallow: {DISALLOWED_PREFIX}\n"
        self.server.set_route("/robots.txt", Route(200, robots.encode(), "text/plain"))
        groups: dict[tuple[str, str], list[SamplePosting]] = {}
        for p in self.postings:
            groups.setdefault((p.format, p.board), []).append(p)
            head = (
                f'<script type="application/ld+json">{_json_ld(base, p)}</script>'
                if p.format == "other"
                else ""
            )
            heading = f"<h1>{html.escape(p.title)}</h1><h2>{html.escape(p.employer)}</h2>"
            body = heading + _paragraphs(p.description)
            form = f"<h1>Apply: {html.escape(p.title)}</h1>{APPLICATION_FORM}"
            if p.format == "greenhouse":
                body += APPLICATION_FORM  # Greenhouse hosts the form on the posting page itself
            else:
                page = _html_page(f"Apply: {p.title}", form)
                self.server.set_route(application_path(p), Route(200, page, "text/html"))
            self.server.set_route(_detail_path(p), Route(200, _html_page(p.title, body, head), "text/html"))
        for (fmt, board), posts in groups.items():
            if fmt == "greenhouse":
                self.server.set_route(f"/v1/boards/{board}/jobs", Route(200, _greenhouse(base, board, posts)))
            elif fmt == "lever":
                self.server.set_route(f"/v0/postings/{board}", Route(200, _lever(base, posts)))
            elif fmt == "ashby":
                self.server.set_route(f"/posting-api/job-board/{board}", Route(200, _ashby(base, posts)))
            elif fmt == "workday":
                install_workday(self.server, base, board, WORKDAY_SITE, posts)
            elif fmt == "smartrecruiters":
                install_smartrecruiters(self.server, base, board, posts)
            else:
                links = "".join(
                    f'<li><a href="{_detail_path(p)}">{html.escape(p.title)}</a></li>' for p in posts
                )
                page = _html_page(f"Careers at {posts[0].employer}", f"<h1>Open roles</h1><ul>{links}</ul>")
                self.server.set_route(f"/careers/{board}", Route(200, page, "text/html"))


def source_for(fmt: str, board: str, employer: str, base_url: str) -> SourceConfig:
    """The sample board's source for one employer board (its family's own board key)."""
    if fmt == "workday":
        return SourceConfig(
            f"workday-{board}", "workday", f"{board}/{WORKDAY_SITE}", employer, base_url, family="workday"
        )
    if fmt == "smartrecruiters":
        return SourceConfig(
            f"smartrecruiters-{board}", "other", board, employer, base_url, family="smartrecruiters"
        )
    kind: AtsKind = fmt  # type: ignore[assignment]  # greenhouse | lever | ashby | other
    return SourceConfig(f"{'careers' if fmt == 'other' else fmt}-{board}", kind, board, employer, base_url)
