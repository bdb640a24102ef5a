"""Events as a later schema version would declare them, for the registry's and the store's upcast
tests: ``JobHidden`` v2 adds who hid the job, so a v1 row needs an upcaster to load."""

from __future__ import annotations

from jobctrl.kernel.events import DomainEvent


class JobHiddenV2(DomainEvent, frozen=True):
    event_type = "JobHidden"
    schema_version = 2
    job_id: str
    reason: str
    hidden_at: str
    hidden_by: str
