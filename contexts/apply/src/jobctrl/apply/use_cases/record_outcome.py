"""Record what happened to an application (the user says so): ``ApplicationOutcomeRecorded``.

The user's words map onto the catalog's kinds (ADR 0163): applied → ``applied_confirmation`` (the
user's own record of a submission, e.g. after finishing a handed-off form), acknowledged →
``recruiter_reply``, interview, rejected → ``rejection``, offer, withdrawn, ghosted → ``no_response``.
A note is never stored (only ``notePresent``).  The outcome id derives from the stream version it
was decided at, so a retried command writes nothing new.
"""

from __future__ import annotations

from typing import Literal, get_args

from jobctrl.apply.events import ApplicationOutcomeRecorded, OutcomeKind
from jobctrl.apply.use_cases._common import jobs, load_job
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore

UserOutcome = Literal["applied", "acknowledged", "interview", "rejected", "offer", "withdrawn", "ghosted"]
USER_OUTCOMES: tuple[str, ...] = get_args(UserOutcome)
CATALOG_KIND: dict[str, OutcomeKind] = {
    "applied": "applied_confirmation",
    "acknowledged": "recruiter_reply",
    "interview": "interview",
    "rejected": "rejection",
    "offer": "offer",
    "withdrawn": "withdrawn",
    "ghosted": "no_response",
}
USER_WORD: dict[str, str] = {v: k for k, v in CATALOG_KIND.items()}


class InvalidOutcome(JobCtrlError):
    code = "invalid_outcome"
    retryable = False


def record_outcome(
    store: EventStore,
    *,
    job_id: str,
    outcome: str,
    note: str | None = None,
    occurred_at: str | None = None,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> ApplicationOutcomeRecorded:
    kind = CATALOG_KIND.get(outcome)
    if kind is None:
        raise InvalidOutcome(f"unknown outcome {outcome[:40]!r} (one of: {', '.join(USER_OUTCOMES)})")
    repo = jobs(store, clock, tenant_id)
    app = load_job(repo, job_id)
    at = occurred_at or now_iso(clock)
    event = ApplicationOutcomeRecorded(
        job_key=job_id,
        outcome_id=deterministic_id("apply-outcome", job_id, str(app.version), kind, at),
        kind=kind,
        source="manual",
        occurred_at=at,
        suggestion_id=None,
        evidence_id=None,
        interview_prep_generation=None,
        note_present=bool(note and note.strip()),
    )
    app.record_outcome(event)
    repo.save(app, **owner.metadata())
    return event
