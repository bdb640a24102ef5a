"""Personio's public job feed: ``GET {base}/xml`` (``base`` is ``https://{company}.jobs.personio.de``).

Shape (XML)::

    <workzag-jobs>
      <position>
        <id>1234</id><subcompany/><office>Berlin</office><department>Engineering</department>
        <name>Backend Engineer</name>
        <jobDescriptions>
          <jobDescription><name>Your tasks</name><value><![CDATA[<p>HTML</p>]]></value></jobDescription>
        </jobDescriptions>
        <employmentType>permanent</employmentType><schedule>full-time</schedule>
        <createdAt>2026-02-18T09:00:00+00:00</createdAt>
      </position>
    </workzag-jobs>

A feed with a DOCTYPE or entity declarations is refused (no entity expansion, ever).  Identity: the
position ``id`` (unique within the company) with the public URL ``{base}/job/{id}``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    MalformedSourceResponse,
    ObservedPosting,
    SourceConfig,
    bounded_posting,
    check_status,
    matches_filters,
    require,
)
from jobctrl.kernel.html import DESCRIPTION, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


def _text(node: ET.Element, tag: str) -> str:
    found = node.find(tag)
    return (found.text or "").strip() if found is not None else ""


def parse_personio(body: bytes, config: SourceConfig) -> list[ObservedPosting]:
    head = body[:4096].upper()
    if b"<!DOCTYPE" in head or b"<!ENTITY" in body.upper():
        raise MalformedSourceResponse("personio feed declares a DOCTYPE or entities")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise MalformedSourceResponse("personio feed is not XML") from exc
    require(root.tag == "workzag-jobs", "personio workzag-jobs root")
    positions = root.findall("position")
    require(len(positions) <= MAX_POSTINGS_PER_SOURCE, "too many personio positions")
    base = config.base_url.rstrip("/")
    postings = []
    for position in positions:
        native = _text(position, "id")
        require(native.isdigit() or (native.isalnum() and len(native) <= 64), "personio position id")
        parts = []
        for desc in position.findall("jobDescriptions/jobDescription"):
            name, value = _text(desc, "name"), html_text(_text(desc, "value"), DESCRIPTION)
            if value:
                parts.append(f"{name}\n{value}" if name else value)
        url = f"{base}/job/{native}"
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="other",
                native_id=native,
                posting_url=url,
                canonical_url=url,
                title=_text(position, "name"),
                employer=_text(position, "subcompany") or config.employer,
                location=_text(position, "office"),
                description="\n\n".join(parts),
                apply_url=url,
                extra={"schedule": _text(position, "schedule")},
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_personio(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    response = await gateway.get(
        f"{config.base_url.rstrip('/')}/xml", policy, budget, headers={"Accept": "application/xml"}
    )
    check_status(response)
    return parse_personio(response.content, config)
