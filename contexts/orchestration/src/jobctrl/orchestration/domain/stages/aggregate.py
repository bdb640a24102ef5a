"""JobStages: the stage rows of one job, as one aggregate (one stream, one transaction per command).

Every command computes the new state through the transition table before recording anything, and
every handler folds the recorded event through the same table, so the stream can only hold valid
transitions.  Related facts are recorded in the same command and therefore committed together: a
Tailor failure and the blocks it puts on Cover and Apply, an exhaustion and its re-blocks, a Tailor
success and the unblocking of exactly the Tailor-owned blocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.stages import STAGES
from jobctrl.kernel.text import bound_text
from jobctrl.orchestration.domain.stages import limits
from jobctrl.orchestration.domain.stages.errors import OwnerRequired, OwnershipLost
from jobctrl.orchestration.domain.stages.states import (
    Blocked,
    Failed,
    Pending,
    Running,
    StageOwner,
    StageState,
    Trigger,
)
from jobctrl.orchestration.domain.stages.transitions import TransitionInputs, transition
from jobctrl.orchestration.events import Stage
from jobctrl.orchestration.events import stages as ev


class ReconcileOutcome(StrEnum):
    ACCEPTED = "accepted"  # a result committed after the baseline: completed, no model call
    RETRYABLE = "retryable"  # nothing committed: the row is pending again (or exhausted)


@dataclass(frozen=True)
class ReconciledRow:
    stage: Stage
    outcome: ReconcileOutcome


def _owner(ref: ev.StageOwnerRef | None) -> StageOwner | None:
    return None if ref is None else StageOwner(ref.workflow_id, ref.temporal_run_id, ref.attempt)


def _ref(owner: StageOwner | None) -> ev.StageOwnerRef | None:
    return (
        None if owner is None else ev.StageOwnerRef(owner.workflow_id, owner.temporal_run_id, owner.attempt)
    )


class JobStages(Aggregate):
    stream_prefix = "stages"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.states: dict[Stage, StageState] = {}
        self._owners_seen: dict[Stage, set[StageOwner]] = {}
        self._attempts_before_block: dict[Stage, int] = {}

    # -- reading --------------------------------------------------------------------------------
    def state(self, stage: Stage) -> StageState:
        """A stage without a row is Pending with no attempts yet."""
        return self.states.get(stage) or Pending(attempt_count=0, max_attempts=limits.MAX_ATTEMPTS[stage])

    def _check(self, stage: Stage, trigger: Trigger, inputs: TransitionInputs | None = None) -> StageState:
        return transition(self.state(stage), trigger, inputs)  # raises TransitionRejected

    def _fence(self, stage: Stage, owner: StageOwner | None) -> None:
        """Refuse a running write that is not from the current owner of the row."""
        if stage not in limits.OWNED_STAGES:
            return
        if owner is None:
            raise OwnerRequired(f"{stage} writes must carry their workflow owner")
        current = self.state(stage)
        if isinstance(current, Running):
            if current.owner != owner:
                raise OwnershipLost(self.id, stage, owner, current.owner)
        elif owner in self._owners_seen.get(stage, set()):
            # The writer did own the row once, but its claim was settled by someone else.
            raise OwnershipLost(self.id, stage, owner, None)

    # -- commands -------------------------------------------------------------------------------
    def enqueue(self, stage: Stage, *, at: str) -> None:
        self._check(stage, Trigger.ENQUEUE)
        self._record(ev.StageEnqueued(job_id=self.id, stage=stage, queued_at=at))

    def start(
        self, stage: Stage, *, at: str, owner: StageOwner | None = None, baseline_version: int | None = None
    ) -> int:
        if stage in limits.OWNED_STAGES and owner is None:
            raise OwnerRequired(f"{stage} writes must carry their workflow owner")
        nxt = self._check(
            stage, Trigger.START, TransitionInputs(owner=owner, baseline_version=baseline_version)
        )
        assert isinstance(nxt, Running)
        self._record(
            ev.StageStarted(
                job_id=self.id,
                stage=stage,
                attempt_number=nxt.attempt_count,
                started_at=at,
                owner=_ref(owner),
                baseline_version=baseline_version,
            )
        )
        return nxt.attempt_count

    def complete(self, stage: Stage, *, at: str, duration_ms: int, owner: StageOwner | None = None) -> None:
        self._fence(stage, owner)
        self._check(stage, Trigger.COMPLETE)
        self._record(ev.StageCompleted(job_id=self.id, stage=stage, finished_at=at, duration_ms=duration_ms))
        if stage == "tailor":
            self._unblock_tailor_dependents(at)

    def fail(
        self,
        stage: Stage,
        *,
        error_code: str,
        error_message: str,
        retryable: bool,
        at: str,
        owner: StageOwner | None = None,
    ) -> StageState:
        """Record a failure; at the attempt limit also the exhaustion; for Tailor, the blocks."""
        self._fence(stage, owner)
        current = self._check(stage, Trigger.FAIL)
        assert isinstance(current, Failed)
        self._record(
            ev.StageFailed(
                job_id=self.id,
                stage=stage,
                error_code=error_code,
                error_message=bound_text(error_message, 500),
                retryable=retryable,
                attempt_number=current.attempt_count,
            )
        )
        failed = self.state(stage)
        assert isinstance(failed, Failed)
        exhausted = failed.attempt_count >= failed.max_attempts
        if exhausted:
            self._record(
                ev.StageExhausted(
                    job_id=self.id,
                    stage=stage,
                    attempt_count=failed.attempt_count,
                    max_attempts=failed.max_attempts,
                )
            )
        if stage == "tailor":
            code = limits.UPSTREAM_TAILOR_EXHAUSTED if exhausted else limits.UPSTREAM_TAILOR_FAILED
            self._block_tailor_dependents(code, at)
        return self.state(stage)

    def reset(self, stage: Stage, *, at: str, reset_attempts: bool = False) -> None:
        self._check(stage, Trigger.RESET, TransitionInputs(reset_attempts=reset_attempts))
        self._record(ev.StageReset(job_id=self.id, stage=stage, reset_attempts=reset_attempts, reset_at=at))

    def block(self, stage: Stage, *, blocked_by: list[Stage], error_code: str, error_message: str) -> None:
        self._check(stage, Trigger.BLOCK)
        self._record(
            ev.StageBlocked(
                job_id=self.id,
                stage=stage,
                blocked_by=list(blocked_by),
                error_code=error_code,
                error_message=bound_text(error_message, 500),
            )
        )

    def unblock(self, stage: Stage, *, at: str) -> None:
        self._check(stage, Trigger.UNBLOCK)
        attempts = self._attempts_before_block.get(stage, 0)
        self._record(ev.StageUnblocked(job_id=self.id, stage=stage, attempt_count=attempts, unblocked_at=at))

    def skip(self, stage: Stage, *, reason: str) -> None:
        self._check(stage, Trigger.SKIP)
        self._record(ev.StageSkipped(job_id=self.id, stage=stage, reason=bound_text(reason, 500)))

    def cancel(self, stage: Stage, *, at: str, reason: str | None = None) -> None:
        self._check(stage, Trigger.CANCEL)
        self._record(ev.StageCanceled(job_id=self.id, stage=stage, canceled_at=at, reason=reason))

    def mark_stale(self, stage: Stage, *, reason: str, at: str) -> None:
        self._check(stage, Trigger.MARK_STALE)
        self._record(ev.StageMarkedStale(job_id=self.id, stage=stage, reason=reason, marked_at=at))

    def reconcile_owned_rows(
        self, owner: StageOwner, committed_versions: Mapping[Stage, int | None], *, at: str
    ) -> list[ReconciledRow]:
        """Settle rows still claimed by an earlier attempt/run of ``owner``'s workflow (or by itself).

        A row whose result was committed after its baseline (``committed_versions[stage]`` above the
        baseline) is completed without another model call; any other row becomes explicitly
        retryable: failed with ``OWNER_RECONCILED_UNCOMMITTED`` and reset to Pending, or exhausted at
        the limit.  Rows of other workflows are left alone."""
        settled: list[ReconciledRow] = []
        for stage in STAGES:
            current = self.states.get(stage)
            if stage not in limits.OWNED_STAGES or not isinstance(current, Running) or current.owner is None:
                continue
            if current.owner.workflow_id != owner.workflow_id:
                continue
            holder = current.owner
            committed = committed_versions.get(stage)
            baseline = current.baseline_version
            if committed is not None and (baseline is None or committed > baseline):
                self.complete(stage, at=at, duration_ms=0, owner=holder)
                settled.append(ReconciledRow(stage, ReconcileOutcome.ACCEPTED))
                continue
            after = self.fail(
                stage,
                error_code=limits.OWNER_RECONCILED_UNCOMMITTED,
                error_message="the owning attempt ended without committing a result",
                retryable=True,
                at=at,
                owner=holder,
            )
            if isinstance(after, Failed):
                self.reset(stage, at=at)
            settled.append(ReconciledRow(stage, ReconcileOutcome.RETRYABLE))
        return settled

    # -- dependency rules -----------------------------------------------------------------------
    def _block_tailor_dependents(self, code: str, at: str) -> None:
        message = "Tailor is exhausted." if code == limits.UPSTREAM_TAILOR_EXHAUSTED else "Tailor failed."
        for dependent in limits.TAILOR_DEPENDENTS:
            current = self.state(dependent)
            if isinstance(current, Blocked) and current.error_code in limits.TAILOR_BLOCK_CODES:
                if current.error_code == code:
                    continue
                # Re-code a Tailor-owned block (failed -> exhausted) through Pending, both valid rows.
                self._record(
                    ev.StageUnblocked(
                        job_id=self.id,
                        stage=dependent,
                        attempt_count=self._attempts_before_block.get(dependent, 0),
                        unblocked_at=at,
                    )
                )
                current = self.state(dependent)
            if isinstance(current, Pending):  # queued, running and terminal rows are never moved back
                self.block(dependent, blocked_by=["tailor"], error_code=code, error_message=message)

    def _unblock_tailor_dependents(self, at: str) -> None:
        for dependent in limits.TAILOR_DEPENDENTS:
            current = self.state(dependent)
            if (
                isinstance(current, Blocked)
                and current.error_code in limits.TAILOR_BLOCK_CODES
                and "tailor" in current.blocked_by
            ):
                self.unblock(dependent, at=at)

    # -- fold (the same table) ------------------------------------------------------------------
    def _move(self, stage: Stage, trigger: Trigger, inputs: TransitionInputs | None = None) -> None:
        self.states[stage] = transition(self.state(stage), trigger, inputs)

    @applies(ev.StageEnqueued)
    def _enqueued(self, e: ev.StageEnqueued) -> None:
        self._move(e.stage, Trigger.ENQUEUE, TransitionInputs(queued_at=e.queued_at))

    @applies(ev.StageStarted)
    def _started(self, e: ev.StageStarted) -> None:
        owner = _owner(e.owner)
        inputs = TransitionInputs(
            started_at=e.started_at,
            attempt_count=e.attempt_number,
            owner=owner,
            baseline_version=e.baseline_version,
        )
        self._move(e.stage, Trigger.START, inputs)
        if owner is not None:
            self._owners_seen.setdefault(e.stage, set()).add(owner)

    @applies(ev.StageCompleted)
    def _completed(self, e: ev.StageCompleted) -> None:
        self._move(
            e.stage, Trigger.COMPLETE, TransitionInputs(finished_at=e.finished_at, duration_ms=e.duration_ms)
        )

    @applies(ev.StageFailed)
    def _failed(self, e: ev.StageFailed) -> None:
        inputs = TransitionInputs(
            max_attempts=limits.MAX_ATTEMPTS[e.stage],
            error_code=e.error_code,
            error_message=e.error_message,
            retryable=e.retryable,
        )
        self._move(e.stage, Trigger.FAIL, inputs)

    @applies(ev.StageExhausted)
    def _exhausted(self, e: ev.StageExhausted) -> None:
        self._move(e.stage, Trigger.EXHAUST)

    @applies(ev.StageReset)
    def _reset(self, e: ev.StageReset) -> None:
        inputs = TransitionInputs(reset_attempts=e.reset_attempts, max_attempts=limits.MAX_ATTEMPTS[e.stage])
        self._move(e.stage, Trigger.RESET, inputs)

    @applies(ev.StageBlocked)
    def _blocked(self, e: ev.StageBlocked) -> None:
        before = self.state(e.stage)
        self._attempts_before_block[e.stage] = before.attempt_count if isinstance(before, Pending) else 0
        inputs = TransitionInputs(
            blocked_by=tuple(e.blocked_by), error_code=e.error_code, error_message=e.error_message
        )
        self._move(e.stage, Trigger.BLOCK, inputs)

    @applies(ev.StageUnblocked)
    def _unblocked(self, e: ev.StageUnblocked) -> None:
        inputs = TransitionInputs(attempt_count=e.attempt_count, max_attempts=limits.MAX_ATTEMPTS[e.stage])
        self._move(e.stage, Trigger.UNBLOCK, inputs)

    @applies(ev.StageSkipped)
    def _skipped(self, e: ev.StageSkipped) -> None:
        self._move(e.stage, Trigger.SKIP, TransitionInputs(reason=e.reason))

    @applies(ev.StageCanceled)
    def _canceled(self, e: ev.StageCanceled) -> None:
        self._move(e.stage, Trigger.CANCEL, TransitionInputs(canceled_at=e.canceled_at, reason=e.reason))

    @applies(ev.StageMarkedStale)
    def _stale(self, e: ev.StageMarkedStale) -> None:
        self._move(e.stage, Trigger.MARK_STALE, TransitionInputs(reason=e.reason))
