"""The source registry commands write under the tenant they are given (ADR 0082): registering,
an operator's state change and an applied health recommendation; without one they write ``local``."""

from __future__ import annotations

from datetime import UTC, datetime

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.domain.source_health import SourceRunOutcome
from jobctrl.discovery.use_cases.apply_source_recommendation import apply_source_recommendation
from jobctrl.discovery.use_cases.change_source_state import change_source_state
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore

CLOCK = FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
SOURCES = [
    SourceConfig("greenhouse-acme", "greenhouse", "acme", "Acme", "https://boards.example.org"),
    SourceConfig("careers-acme", "other", "acme", "Acme", "https://acme.example.org"),
]


def _written(store: EventStore, after: int) -> list[tuple[str, str]]:
    return [(e.tenant_id, e.event_type) for e in store.read_all(after=after, limit=1000)]


def test_register_sources_and_state_changes_write_under_the_given_tenant(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    assert register_sources(store, SOURCES, clock=CLOCK, tenant_id="acme") == 2
    assert register_sources(store, SOURCES, clock=CLOCK, tenant_id="acme") == 0  # registered: nothing new
    assert change_source_state(
        store, source_id="careers-acme", to="disabled", reason="operator", clock=CLOCK, tenant_id="acme"
    )
    failures = [SourceRunOutcome(False)] * 3
    applied = apply_source_recommendation(
        store, source_id="greenhouse-acme", outcomes=failures, clock=CLOCK, tenant_id="acme"
    )
    assert applied is not None and applied.to_state == "quarantined"

    assert _written(store, 0) == [
        ("acme", "SourceRegistryEntryCreated"),
        ("acme", "SourceRegistryEntryCreated"),
        ("acme", "SourceStateChanged"),
        ("acme", "SourceStateChanged"),
    ]


def test_without_a_tenant_the_registry_writes_local(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    assert register_sources(store, SOURCES[:1], clock=CLOCK) == 1
    assert _written(store, 0) == [("local", "SourceRegistryEntryCreated")]
