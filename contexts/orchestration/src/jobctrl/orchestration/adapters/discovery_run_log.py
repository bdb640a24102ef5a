"""The discovery run's writer as discovery's activities call it (discovery's ``DiscoveryRunLog`` port).

Discovery plans the families and crawls them; the run they belong to is orchestration's (ADR 0180),
so discovery records the run's start, progress and end through this port and never appends a
``DiscoveryRun*`` event itself.  Each method is one of orchestration's use cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.discovery_run import FamilyEnd
from jobctrl.orchestration.use_cases.finish_discovery_run import finish_discovery_run
from jobctrl.orchestration.use_cases.report_discovery_progress import report_discovery_progress
from jobctrl.orchestration.use_cases.start_discovery_run import start_discovery_run


@dataclass(frozen=True)
class DiscoveryRunLog:
    store: EventStore
    clock: Clock

    def start(
        self,
        *,
        run_id: str,
        source_ids: Sequence[str],
        family_count: int,
        workflow_id: str | None = None,
        tenant_id: str = LOCAL_TENANT,
    ) -> int:
        """Returns the progress total the families and terminal steps report against."""
        return start_discovery_run(
            self.store, run_id=run_id, source_ids=source_ids, family_count=family_count,
            clock=self.clock, workflow_id=workflow_id, tenant_id=tenant_id,
        )  # fmt: skip

    def progress(
        self,
        *,
        run_id: str,
        completed: int,
        total: int,
        workflow_id: str | None = None,
        tenant_id: str = LOCAL_TENANT,
    ) -> bool:
        return report_discovery_progress(
            self.store, run_id=run_id, completed=completed, total=total, clock=self.clock,
            workflow_id=workflow_id, tenant_id=tenant_id,
        )  # fmt: skip

    def finish(
        self,
        results: Sequence[FamilyEnd],
        *,
        run_id: str,
        workflow_id: str | None = None,
        tenant_id: str = LOCAL_TENANT,
    ) -> bool:
        return finish_discovery_run(
            self.store, results, run_id=run_id, clock=self.clock, workflow_id=workflow_id,
            tenant_id=tenant_id,
        )  # fmt: skip
