"""Save the candidate profile: validated and normalized before anything is appended (ADR 0142); the
change and its continuation-outbox fact are one append (one transaction, ADR 0074)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.profile.aggregate import SaveOutcome
from jobctrl.orchestration.use_cases.load_profile import change_profile


def save_profile(
    store: EventStore,
    content: Mapping[str, Any],
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> SaveOutcome:
    at = now_iso(clock)
    return change_profile(store, lambda p: p.save(content, at=at), clock=clock, tenant_id=tenant_id)
