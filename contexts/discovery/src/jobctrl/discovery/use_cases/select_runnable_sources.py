"""Pick the sources a run may crawl: registered ones that are active or experimental.

Quarantined and disabled sources are skipped; an unregistered source is not crawled either, because
its crawl policy has not been chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.store import EventStore


def select_runnable_sources(store: EventStore, configs: Sequence[SourceConfig]) -> list[SourceConfig]:
    sources = AggregateRepository.for_class(store, SourceEntry)
    runnable = []
    for config in configs:
        entry = sources.load(config.source_id)
        if entry is not None and entry.runnable:
            runnable.append(config)
    return runnable
