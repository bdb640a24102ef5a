"""Steps of the job, apply-run and contact views."""

from __future__ import annotations

import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationSubmitted,
    ApplyRunStarted,
    EmailApplicationCandidateRecorded,
)
from jobctrl.contact.events import ContactCreated, ContactDeleted
from jobctrl.discovery.events import JobDiscovered
from jobctrl.enrichment.events import JobEnriched
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.read_models.apply_runs import apply_run_projections
from jobctrl.projections.read_models.contacts import contact_projections
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.scoring.events import JobScored

from .world import AT, World


# -- job, apply and contact views -----------------------------------------------------------------
@given(parsers.parse('job "{job}" was discovered at "{employer}" with title "{title}"'))
def job_discovered(world: World, job: str, employer: str, title: str) -> None:
    world.append(
        JobDiscovered(
            job_id=job,
            posting_url=f"https://jobs.example/{job}",
            source="greenhouse:acme",
            employer=employer,
            metadata={"title": title, "salary": 5},
            discovered_at=AT,
        )
    )


@given(parsers.parse('job "{job}" was enriched with a long description'))
def job_enriched(world: World, job: str) -> None:
    world.append(
        JobEnriched(
            job_id=job,
            full_description="Build pipelines.\n" * 200,
            application_url="https://a.example",
            extraction_tier="json_ld",
            enriched_at=AT,
        )
    )


@given(parsers.parse('job "{job}" was scored {score:d} in version {version:d}'))
@when(parsers.parse('job "{job}" was scored {score:d} in version {version:d}'))
def job_scored(world: World, job: str, score: int, version: int) -> None:
    world.append(
        JobScored(
            job_id=job,
            fit_score=float(score),
            breakdown={"requirements": []},
            keywords=["sql"],
            version=version,
            scored_at=AT,
        )
    )


@then(parsers.parse('the list row of "{job}" shows "{title}" at "{employer}" scored {score:d}'))
def list_row(world: World, job: str, title: str, employer: str, score: int) -> None:
    t = job_list_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.job_id == job)).one()
    assert (row.title, row.employer, row.fit_score) == (title, employer, float(score))


@then(parsers.parse('the description preview of "{job}" is at most {limit:d} characters'))
def preview(world: World, job: str, limit: int) -> None:
    t = job_list_projections
    with world.fold().read() as conn:
        text = conn.execute(sa.select(t.c.description_preview).where(t.c.job_id == job)).scalar_one()
    assert 0 < len(text) <= limit and "\n" not in text


@given(parsers.parse('apply run "{run}" for job "{job}" started'))
def apply_started(world: World, run: str, job: str) -> None:
    world.append(
        ApplyRunStarted(job_id=job, run_id=run, worker_id="w1", model="local", dry_run=False, started_at=AT)
    )


@given(parsers.parse('apply run "{run}" recorded an email candidate for "{recipient}"'))
def apply_candidate(world: World, run: str, recipient: str) -> None:
    world.append(
        EmailApplicationCandidateRecorded(
            run_id=run,
            recipient=recipient,
            subject="Application",
            body="Dear team",
            attachment_artifact_id="a1",
            attachment_name="cv.pdf",
        )
    )


@given(parsers.parse('apply run "{run}" submitted the application'))
def apply_submitted(world: World, run: str) -> None:
    world.append(ApplicationSubmitted(job_id="job-1", run_id=run, applied_at=AT, verification_confidence=0.9))


@when(parsers.parse('apply run "{run}" failed'))
def apply_failed(world: World, run: str) -> None:
    world.append(
        ApplicationFailed(job_id="job-1", run_id=run, result={"code": "late_failure"}, attempt_number=1)
    )


@then(parsers.parse('apply run "{run}" is "{status}" with an email candidate'))
def apply_status(world: World, run: str, status: str) -> None:
    t = apply_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.run_id == run)).one()
    assert (row.status, row.email_candidate) == (status, True)


@then(parsers.parse('no read model holds "{value}"'))
def nowhere(world: World, value: str) -> None:
    db = world.fold()
    with db.read() as conn:
        for projection in OPERATIONS:
            for table in projection.tables:
                assert value not in str(conn.execute(sa.select(table.table)).all())


@given(parsers.parse('contact "{contact}" was created at "{employer}"'))
def contact_created(world: World, contact: str, employer: str) -> None:
    world.append(
        ContactCreated(contact_id=contact, employer=employer, job_id=None, role="recruiter", created_at=AT)
    )


@given(parsers.parse('contact "{contact}" was deleted'))
@when(parsers.parse('contact "{contact}" is deleted'))
def contact_deleted(world: World, contact: str) -> None:
    world.fold()  # the row exists first, then the deletion removes it
    world.append(ContactDeleted(contact_id=contact, reason="user_request", deleted_at=AT))


@then(parsers.parse('there is no contact row for "{contact}"'))
def no_contact(world: World, contact: str) -> None:
    t = contact_projections
    with world.fold().read() as conn:
        assert conn.execute(sa.select(t).where(t.c.contact_id == contact)).first() is None
