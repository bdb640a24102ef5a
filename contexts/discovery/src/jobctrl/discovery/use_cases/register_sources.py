"""Register a set of adapter configurations in the source registry with their default policy."""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.adapters.registry import adapter_for
from jobctrl.discovery.domain.source_spec import SOURCE_KIND_OF
from jobctrl.discovery.events import SourceKind, SourceState
from jobctrl.discovery.use_cases.register_source import register_source
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore


def source_kind_for(config: SourceConfig) -> SourceKind:
    # ATS job-board JSON APIs are ``ats_api``; JSON-LD career pages are employer career pages,
    # broad boards and smart extraction their own kinds.
    return SOURCE_KIND_OF.get(config.family_name, "ats_api")


def register_sources(
    store: EventStore,
    configs: Sequence[SourceConfig],
    *,
    clock: Clock,
    state: SourceState = "active",
    tenant_id: str = LOCAL_TENANT,
) -> int:
    """Returns how many entries were created (existing entries keep their state); what it writes
    carries ``tenant_id``."""
    created = 0
    for config in configs:
        _fetch, policy = adapter_for(config.family_name)
        created += register_source(
            store,
            source_id=config.source_id,
            kind=source_kind_for(config),
            policy_id=policy.name,
            state=state,
            clock=clock,
            tenant_id=tenant_id,
        )
    return created
