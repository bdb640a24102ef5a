"""What discovery asks of the rest of the system, wired by the composition root.

* ``DiscoveryRunLog`` — the run a crawl belongs to.  The discovery run is orchestration's fact
  (ADR 0180): discovery plans and crawls the families and reports the run's start, progress and end
  through this port (orchestration's ``DiscoveryRunLog`` use cases), never appending a
  ``DiscoveryRun*`` event itself.
* ``BoardScraper`` — the broad-board library's search call (``jobspy.scrape_jobs``, ADR 0285): the
  vendor edge of the broad-board gateway, which alone reads its DataFrame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from jobctrl.discovery.use_cases.run_source_family import FamilyResult


class DiscoveryRunLog(Protocol):
    def start(
        self,
        *,
        run_id: str,
        source_ids: Sequence[str],
        family_count: int,
        workflow_id: str | None = ...,
        tenant_id: str = ...,
    ) -> int:
        """Start the run (a started run records nothing); returns its progress total."""
        ...

    def progress(
        self, *, run_id: str, completed: int, total: int, workflow_id: str | None = ..., tenant_id: str = ...
    ) -> bool:
        """Advance the run's spine (monotonic; total 0 is progress-silent)."""
        ...

    def finish(
        self,
        results: Sequence[FamilyResult],
        *,
        run_id: str,
        workflow_id: str | None = ...,
        tenant_id: str = ...,
    ) -> bool:
        """Record the run's terminal fact from its families' results (first terminal result wins)."""
        ...


#: ``jobspy.scrape_jobs``'s call (keyword arguments only), returning the library's DataFrame.
BoardScraper = Callable[..., Any]
