"""Which members an enrichment pass reads, with which description (ADR 0221, 0263)."""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.events import JobDiscovered
from jobctrl.enrichment import EnrichJob, select_enrichment_jobs


def _found(job_id: str, **metadata: Any) -> JobDiscovered:
    return JobDiscovered(
        job_id=job_id, posting_url=f"https://jobs.example/{job_id}", source="lever", employer="Acme",
        metadata=metadata, discovered_at="2026-12-01T09:00:00Z",
    )  # fmt: skip


def test_discovered_members_are_enriched_with_the_sources_own_description_only() -> None:
    facts = {
        "own": _found("own", description="<p>Build pipelines</p>"),
        "read": _found("read", description="Text read off a careers page", extraction="readable_text"),
        "blank": _found("blank", description="   "),
        "odd": _found("odd", description=["not", "text"]),
    }
    jobs = select_enrichment_jobs(["own", "gone", "read", "blank", "odd"], facts.get)
    assert jobs == [
        EnrichJob("own", "https://jobs.example/own", "lever", "<p>Build pipelines</p>"),
        EnrichJob("read", "https://jobs.example/read", "lever", None),  # not the source's own text
        EnrichJob("blank", "https://jobs.example/blank", "lever", None),
        EnrichJob("odd", "https://jobs.example/odd", "lever", None),
    ]  # "gone": a member without a discovery fact is not enriched
