"""What orchestration asks of the rest of the system, wired by the composition root.

* ``CloseInterruptedMembership`` — close a Discover execution's membership with
  ``interrupted_<why>`` (discovery's fact, ADR 0083; a no-op once closed).  The discovery run's
  interrupt activity and the describe reconciler call it after the run's own terminal fact.
"""

from __future__ import annotations

from typing import Protocol


class CloseInterruptedMembership(Protocol):
    def __call__(self, tenant_id: str, workflow_id: str, run_id: str, why: str) -> None: ...
