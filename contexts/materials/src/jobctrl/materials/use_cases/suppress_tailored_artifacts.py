"""Use case: withdraw tailored artifacts (→ ``TailoredArtifactsSuppressed``), e.g. after a rescore
drops the job below the fit threshold.  A suppressed resume is no longer current, so no cover letter or
PDF is made from it.  Idempotent: suppressing what is already suppressed appends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import checked_id
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bounded_code
from jobctrl.materials.use_cases._common import load, repository


@dataclass(frozen=True)
class SuppressTailoredArtifacts:
    job_id: str
    artifact_ids: tuple[str, ...]
    reason_code: str
    current_fit_score: float | None = None
    score_threshold: float | None = None
    origin: WriteOrigin = field(default_factory=WriteOrigin)


def suppress_tailored_artifacts(
    command: SuppressTailoredArtifacts, *, store: EventStore, clock: Clock
) -> bool:
    repo = repository(store, clock)
    materials = load(repo, checked_id(command.job_id))
    recorded = materials.suppress(
        [checked_id(a) for a in command.artifact_ids],
        bounded_code(command.reason_code),
        now_iso(clock),
        command.current_fit_score,
        command.score_threshold,
    )
    repo.save(materials, **command.origin.metadata())
    return recorded
