"""The current facts of a job ready to apply to, as the apply tests start from them."""

from __future__ import annotations

from jobctrl.apply.domain.facts import CurrentJobFacts


def ready_facts(
    job: str = "job-1", employer: str = "Acme", role: str = "Data Engineer", *, url: str | None = None
) -> CurrentJobFacts:
    """A prepared job: materials generation 1 under profile version 1, its resume PDF ready and a
    current, eligible score of 8; applied to at ``url`` (default ``https://jobs.example/{job}``)."""
    return CurrentJobFacts(
        job_id=job, employer=employer, role=role, materials_generation=1, profile_version=1,
        application_url=url if url is not None else f"https://jobs.example/{job}", resume_pdf_ready=True,
        score_current=True, score_eligible=True, score=8.0,
    )  # fmt: skip
