"""Which of an execution's members the enrichment pass reads, and with which description (ADR 0221,
0263).

Every member with a ``JobDiscovered`` fact is enriched from its posting URL.  Its source's own
description goes with it unless a smart extractor read it off a page without structured data
(``extraction: readable_text``): that text is not the source's own, so enrichment reads the page with
its cascade instead.  A description that is not text, or only whitespace, is none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from jobctrl.discovery.events import JobDiscovered
from jobctrl.enrichment.use_cases.enrich_job import EnrichJob


def source_description(found: JobDiscovered) -> str | None:
    """The source's own description, when it is one to trust."""
    if found.metadata.get("extraction") == "readable_text":
        return None
    text = found.metadata.get("description")
    return text if isinstance(text, str) and text.strip() else None


def select_enrichment_jobs(
    members: Iterable[str], discovered: Callable[[str], JobDiscovered | None]
) -> list[EnrichJob]:
    jobs = []
    for job_id in members:
        found = discovered(job_id)
        if found is not None:
            jobs.append(EnrichJob(job_id, found.posting_url, found.source, source_description(found)))
    return jobs
