"""What orchestration asks of the rest of the system, wired by the composition root.

* ``CloseInterruptedMembership`` — close a Discover execution's membership with
  ``interrupted_<why>`` (discovery's fact, ADR 0083; a no-op once closed).  The discovery run's
  interrupt activity and the describe reconciler call it after the run's own terminal fact.
* ``StartPreparation`` — start one ``JobPreparationWorkflow`` under its id, attaching to a running
  one; False when it was started already (the Temporal client, wired by the runtime; ADR 0261).
* ``RecordWorkPlans`` — record a cohort's work plans on discovery's execution (and, for the terminal
  cohort, mark the unplanned members not eligible and close the membership); returns how many members
  it marked not eligible (discovery's ``record_fanout_plans``; ADR 0261).
* ``ContinuationControl`` — the profile continuations in Temporal: ``describe`` a workflow id (its
  status name, ``None`` when absent) and ``start`` one that never reuses an id (False when it is
  running or ever ran); the runtime wires it to its ``WorkflowControl`` (ADR 0262).
* ``PreparationCandidates`` — discovery's jobs a preparation cohort draws from: every known job, and
  the members of one cohort of a Discover execution (ADR 0263).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from jobctrl.activity_contracts.contracts import Cohort
    from jobctrl.kernel.execution import ExecutionRef
    from jobctrl.orchestration.domain.preparation_plan import WorkPlan
    from jobctrl.orchestration.workflows.continuation import ProfileContinuationInput
    from jobctrl.orchestration.workflows.preparation import JobPreparationInput


class CloseInterruptedMembership(Protocol):
    def __call__(self, tenant_id: str, workflow_id: str, run_id: str, why: str) -> None: ...


class StartPreparation(Protocol):
    async def __call__(self, workflow_id: str, payload: JobPreparationInput) -> bool: ...


class RecordWorkPlans(Protocol):
    def __call__(self, execution: ExecutionRef, cohort: Cohort, plans: Sequence[WorkPlan]) -> int: ...


class ContinuationControl(Protocol):
    async def describe(self, workflow_id: str) -> str | None: ...

    async def start(self, workflow_id: str, arg: ProfileContinuationInput) -> bool: ...


class PreparationCandidates(Protocol):
    def known_jobs(self) -> Iterable[str]: ...

    def members(self, tenant_id: str, workflow_id: str, run_id: str, cohort: str) -> list[str]: ...
