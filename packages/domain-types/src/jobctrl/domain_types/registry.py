"""Assembles the canonical registry: catalog order, classes from each context's ``events`` module."""

from __future__ import annotations

from functools import cache

from jobctrl.apply import events as apply_events
from jobctrl.contact import events as contact_events
from jobctrl.discovery import events as discovery_events
from jobctrl.enrichment import events as enrichment_events
from jobctrl.kernel.catalog import CANONICAL_EVENT_NAMES
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.registry import EventRegistry, RegistryError, Upcaster
from jobctrl.materials import events as materials_events
from jobctrl.orchestration import events as orchestration_events
from jobctrl.scoring import events as scoring_events

CONTEXT_EVENT_MODULES = (
    discovery_events,
    enrichment_events,
    scoring_events,
    materials_events,
    apply_events,
    contact_events,
    orchestration_events,
)

# Each context may publish ``UPCASTERS`` beside ``EVENTS`` in its events module.
UPCASTERS: tuple[Upcaster, ...] = tuple(
    up for module in CONTEXT_EVENT_MODULES for up in getattr(module, "UPCASTERS", ())
)


def ordered_classes(
    names: tuple[str, ...] = CANONICAL_EVENT_NAMES, modules: tuple[object, ...] = CONTEXT_EVENT_MODULES
) -> tuple[type[DomainEvent], ...]:
    """Every context class placed at its catalog position; a missing or extra class is an error."""
    by_name: dict[str, type[DomainEvent]] = {}
    for module in modules:
        for cls in getattr(module, "EVENTS"):  # noqa: B009 - every events module publishes EVENTS
            if cls.event_type in by_name:
                raise RegistryError(f"{cls.event_type} is published by two contexts")
            by_name[cls.event_type] = cls
    missing = [n for n in names if n not in by_name]
    extra = sorted(set(by_name) - set(names))
    if missing or extra:
        raise RegistryError(f"catalog and contexts disagree: missing classes {missing}, uncatalogued {extra}")
    return tuple(by_name[n] for n in names)


@cache
def registry() -> EventRegistry:
    return EventRegistry(ordered_classes(), UPCASTERS)
