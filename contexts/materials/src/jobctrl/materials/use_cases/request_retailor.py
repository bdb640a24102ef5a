"""Use case: ask for a fresh tailoring of a job (→ ``TailorRetailorRequested``).

It resets the attempt budget (an exhausted job can be tailored again).  Idempotent on ``request_id``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import checked_id
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bound_text
from jobctrl.materials.domain.aggregate import RetailorKind
from jobctrl.materials.use_cases._common import load, repository


@dataclass(frozen=True)
class RequestRetailor:
    request_id: str
    job_id: str
    kind: RetailorKind
    current_policy_version: int
    latest_artifact_policy_version: int | None
    reason: str
    source_event_id: str | None = None
    origin: WriteOrigin = field(default_factory=WriteOrigin)


def request_retailor(command: RequestRetailor, *, store: EventStore, clock: Clock) -> bool:
    checked_id(command.request_id)
    repo = repository(store, clock)
    materials = load(repo, checked_id(command.job_id))
    recorded = materials.request_retailor(
        command.request_id,
        command.kind,
        command.current_policy_version,
        command.latest_artifact_policy_version,
        bound_text(command.reason, 200),
        now_iso(clock),
        command.source_event_id,
    )
    repo.save(materials, **command.origin.metadata())
    return recorded
