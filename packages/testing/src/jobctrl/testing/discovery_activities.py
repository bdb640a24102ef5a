"""Discovery's activities wired the way the suite runs them locally: the store's run log, a polite
gateway that names a test contact, and the sample board's quick crawl policy (no waits)."""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.activities import DiscoveryActivities, SourceCatalog
from jobctrl.discovery.sample_board.misbehaviour import quick_local_policy
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import DiscoveryRunLog
from jobctrl.politeness import PolitenessGateway, UserAgent


def local_discovery_activities(
    store: EventStore, sources: SourceCatalog, clock: Clock, **wiring: Any
) -> DiscoveryActivities:
    """``DiscoveryActivities`` over ``store`` and the ``sources`` catalog; ``wiring`` adds the rest
    (``broad_boards``, ``board_scraper``)."""
    return DiscoveryActivities(
        store,
        runs=DiscoveryRunLog(store, clock),
        sources=sources,
        gateway=lambda: PolitenessGateway(UserAgent(contact="mailto:test@example.org")),
        clock=clock,
        policy_override=quick_local_policy,
        **wiring,
    )
