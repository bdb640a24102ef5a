"""A dry run found that the job is applied to by email: record the exact candidate message.

The recorded candidate is what a user approves (recipient and attachment); the run that found it is
its dry-run evidence, so recording it completes that dry run with full coverage of the email.
"""

from __future__ import annotations

import re

from jobctrl.apply.domain.errors import InvalidReviewDecision, RunNotActive
from jobctrl.apply.domain.facts import CurrentJobFacts
from jobctrl.apply.domain.job_application import EmailCandidate
from jobctrl.apply.domain.run_events import DryRunCompleted
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import MissingInputError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore

_ADDRESS = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")


def record_email_candidate(
    store: EventStore,
    *,
    run_id: str,
    facts: CurrentJobFacts,
    candidate: EmailCandidate,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> None:
    if not _ADDRESS.match(candidate.recipient):
        raise InvalidReviewDecision("email candidate recipient is not one plain address")
    if facts.materials_generation is None or facts.profile_version is None or facts.application_url is None:
        raise MissingInputError("an email candidate needs current materials, profile and URL")
    repo = jobs(store, clock, tenant_id)
    app = repo.get(facts.job_id)
    if not app.run(run_id).dry_run:
        raise RunNotActive(f"apply run {run_id!r} is live; candidates are found by dry runs")
    app.record_email_candidate(run_id, candidate)
    app.complete_dry_run(
        run_id,
        DryRunCompleted(
            coverage="full",
            materials_generation=facts.materials_generation,
            profile_version=facts.profile_version,
            application_url=facts.application_url,
            filled=["email_recipient", "email_attachment"],
            missing=[],
            blocked_attempts=0,
        ),
    )
    repo.save(app, **owner.metadata())
