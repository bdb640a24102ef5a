"""Steps about a job's facts and the user's review decisions: what was prepared, what was changed,
what was approved (and how an approval reads)."""

from __future__ import annotations

import dataclasses
from typing import Any

from pytest_bdd import given, parsers, then, when

from jobctrl.apply.domain.approval import read_approval
from jobctrl.apply.use_cases.grant_repeat_override import grant_repeat_override
from jobctrl.apply.use_cases.record_review_decision import ReviewDecisionCommand, record_review_decision
from jobctrl.testing.apply_facts import ready_facts
from jobctrl.testing.apply_site.site import LocalJobSite

from .world import World, _approve


@given(parsers.parse('a prepared job "{job}" at "{employer}" for "{role}"'))
def prepared_job(world: World, job: str, employer: str, role: str) -> None:
    world.facts[job] = ready_facts(job, employer, role)


@given(parsers.parse('job "{job}" is reviewed at "{path}" on the local job site'))
def on_local_site(world: World, job_site: LocalJobSite, job: str, path: str) -> None:
    world.facts[job] = dataclasses.replace(world.facts[job], application_url=job_site.url(path))


_FACT_CHANGES: dict[str, Any] = {
    "materials generation": lambda v: {"materials_generation": int(v)},
    "profile version": lambda v: {"profile_version": int(v)},
    "application URL": lambda v: {"application_url": v.strip('"')},
    "score": lambda v: {"score": float(v)},
    "resume PDF": lambda v: {"resume_pdf_ready": v == "ready"},
    "score currency": lambda v: {"score_current": v == "current"},
    "score eligibility": lambda v: {"score_eligible": v == "eligible"},
    "posting": lambda v: {"closed": v == "closed"},
}


@given(
    parsers.re(
        r'job "(?P<job>[^"]+)" has (?P<field_>'
        + "|".join(sorted(_FACT_CHANGES, key=len, reverse=True))
        + r") (?P<value>.+)"
    )
)
def job_fact(world: World, job: str, field_: str, value: str) -> None:
    world.facts[job] = dataclasses.replace(world.facts[job], **_FACT_CHANGES[field_](value))


@given(parsers.parse('the user approved submitting "{job}"'))
def approved(world: World, job: str) -> None:
    _approve(world, job)


@given(
    parsers.parse(
        'the user approved submitting "{job}" with the partial-coverage override of its last dry run'
    )
)
def approved_with_override(world: World, job: str) -> None:
    _approve(world, job, partial_override_run_id=world.runs[job])


@given(parsers.parse('the user approved emailing "{job}" to "{recipient}" with attachment "{artifact}"'))
def approved_email(world: World, job: str, recipient: str, artifact: str) -> None:
    _approve(world, job, email_recipient=recipient, email_attachment_artifact_id=artifact)


@given(parsers.re(r'the user (?P<decision>deferred|declined|reset the review of) "(?P<job>[^"]+)"'))
def other_decision(world: World, decision: str, job: str) -> None:
    kind = {"deferred": "defer", "declined": "decline", "reset the review of": "reset"}[decision]
    record_review_decision(world.store, ReviewDecisionCommand(job_id=job, decision=kind), world.facts[job])  # type: ignore[arg-type]


@given("approval is not required")
def no_approval(world: World) -> None:
    world.policy = dataclasses.replace(world.policy, approval_required=False)


@when(parsers.parse('the user grants a repeat-application override for "{job}"'))
def override(world: World, job: str) -> None:
    grant_repeat_override(world.store, world.facts[job], reason="different team", clock=world.clock)


@when(parsers.parse('the user approves submitting "{job}" with materials generation {gen:d}'))
def approve_uncommitted(world: World, job: str, gen: int) -> None:
    f = world.facts[job]
    command = ReviewDecisionCommand(
        job_id=job,
        decision="approve_submit",
        materials_generation=gen,
        profile_version=f.profile_version,
        application_url=f.application_url,
    )
    world.attempt(lambda: record_review_decision(world.store, command, f, clock=world.clock))


@when(parsers.parse('the approval of "{job}" is read from a store that cannot be read'))
def unreadable(world: World, job: str) -> None:
    with world.store.db.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE job_events RENAME TO job_events_gone")
    world.result = read_approval(world.store, world.facts[job], email=False)


@then(parsers.parse('the approval reads as "{reason}"'))
def approval_reads(world: World, reason: str) -> None:
    assert world.result == reason
