"""Shared fixtures for the orchestration scenarios."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.adapters.spend_ledger import SpendStatus
from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
from jobctrl.orchestration.domain.profile.aggregate import Dispatch, SaveOutcome
from jobctrl.orchestration.domain.stages.aggregate import ReconciledRow


@dataclass
class World:
    """What a scenario's steps hand on to its later steps (one field per fact a Then reads)."""

    head_before: int = 0  # the log's head before the When acted
    error: JobCtrlError | None = None  # the typed refusal the When caught
    reconciled: list[ReconciledRow] = field(default_factory=list)
    spend: SpendStatus | None = None  # the spend preflight's answer
    job: str = ""
    workflow_id: str = ""
    run_id: str = ""
    tracker: StageTrackerService | None = None
    began: bool | None = None  # the tracker's answer to a begin
    saved: SaveOutcome | None = None  # the profile save's outcome
    plan: list[Dispatch] = field(default_factory=list)  # the outbox drain's dispatches
    closed: list[bool] = field(default_factory=list)  # each close_continuation's answer

    def stage_tracker(self) -> StageTrackerService:
        assert self.tracker is not None, "no tracker: the scenario names no job and workflow"
        return self.tracker


@pytest.fixture
def world() -> World:
    return World()


# -- stage steps shared by stage_rules.feature and stage_ownership.feature ----------------------
from pytest_bdd import given, parsers, then, when  # noqa: E402

from jobctrl.orchestration.domain.stages.aggregate import ReconcileOutcome  # noqa: E402
from jobctrl.orchestration.domain.stages.states import Blocked, Running, StageOwner, kind_of  # noqa: E402
from jobctrl.orchestration.domain.stages.transitions import TransitionRejected  # noqa: E402
from jobctrl.orchestration.events import Stage  # noqa: E402
from jobctrl.orchestration.use_cases.change_job_stages import change_job_stages  # noqa: E402
from jobctrl.orchestration.use_cases.load_job_stages import load_job_stages  # noqa: E402
from jobctrl.orchestration.use_cases.reconcile_owned_stages import reconcile_owned_stages  # noqa: E402

AT = "2026-03-01T09:00:00.000Z"
DEFAULT_OWNER = StageOwner("wf-default", "run-default", 1)


def _owner_for(stage: str) -> StageOwner | None:
    return DEFAULT_OWNER if stage in ("score", "tailor", "cover") else None


def _attempt(world: World, store: EventStore, action: Callable[[], object]) -> None:
    world.head_before = store.head_position()
    try:
        action()
    except JobCtrlError as exc:
        world.error = exc


def _start_and(store: EventStore, job: str, stage: Stage, outcome: str) -> None:
    owner = _owner_for(stage)

    def command(s: Any) -> None:
        s.start(stage, at=AT, owner=owner)
        if outcome == "fails":
            s.fail(stage, error_code="TIMEOUT", error_message="timed out", retryable=True, at=AT, owner=owner)
        elif outcome == "completes":
            s.complete(stage, at=AT, duration_ms=10, owner=owner)

    change_job_stages(store, job, command, owner=owner)


@given(parsers.parse('job "{job}" has no stage history'))
def no_history(store: EventStore) -> None:
    assert store.head_position() == 0


@given(parsers.parse('the {stage} stage of "{job}" failed {n:d} times'))
def failed_n_times(store: EventStore, job: str, stage: Stage, n: int) -> None:
    """Each failure is reset for the next attempt, unless it exhausted the stage."""
    for _ in range(n):
        _start_and(store, job, stage, "fails")
        if kind_of(load_job_stages(store, job).state(stage)) == "Failed":
            change_job_stages(store, job, lambda s: s.reset(stage, at=AT))


@given(parsers.parse('the {stage} stage of "{job}" was skipped'))
def was_skipped(store: EventStore, job: str, stage: Stage) -> None:
    change_job_stages(store, job, lambda s: s.skip(stage, reason="low_score"))


@given(parsers.parse('the {stage} stage of "{job}" is running'))
def is_running(store: EventStore, job: str, stage: Stage) -> None:
    _start_and(store, job, stage, "runs")


@when(parsers.parse('the {stage} stage of "{job}" is started and {outcome}'))
def started_and(store: EventStore, world: World, job: str, stage: Stage, outcome: str) -> None:
    world.head_before = store.head_position()
    _start_and(store, job, stage, outcome)


@when(parsers.parse('the {stage} stage of "{job}" is started'))
def started(store: EventStore, world: World, job: str, stage: Stage) -> None:
    _attempt(
        world,
        store,
        lambda: change_job_stages(store, job, lambda s: s.start(stage, at=AT, owner=_owner_for(stage))),
    )


@when(parsers.parse('the {stage} stage of "{job}" is started without an owner'))
def started_no_owner(store: EventStore, world: World, job: str, stage: Stage) -> None:
    _attempt(world, store, lambda: change_job_stages(store, job, lambda s: s.start(stage, at=AT)))


@when(parsers.parse('the {stage} stage of "{job}" is reset'))
def reset(store: EventStore, job: str, stage: Stage) -> None:
    change_job_stages(store, job, lambda s: s.reset(stage, at=AT))


@then(parsers.parse('the {stage} stage of "{job}" is {kind} with {n:d} attempts'))
@then(parsers.parse('the {stage} stage of "{job}" is {kind} with {n:d} attempt'))
def stage_is(store: EventStore, job: str, stage: Stage, kind: str, n: int) -> None:
    state = load_job_stages(store, job).state(stage)
    assert kind_of(state) == kind and getattr(state, "attempt_count", None) == n


@then(parsers.re(r'the (?P<stage>\w+) stage of "(?P<job>[^"]+)" is (?P<kind>[A-Z][A-Za-z]+)$'))
def stage_kind(store: EventStore, job: str, stage: Stage, kind: str) -> None:
    assert kind_of(load_job_stages(store, job).state(stage)) == kind


@given(parsers.parse('the {stage} stage of "{job}" is blocked by tailor with "{code}"'))
@then(parsers.parse('the {stage} stage of "{job}" is blocked by tailor with "{code}"'))
def blocked_by_tailor(store: EventStore, job: str, stage: Stage, code: str) -> None:
    state = load_job_stages(store, job).state(stage)
    assert isinstance(state, Blocked) and state.blocked_by == ("tailor",) and state.error_code == code


@then(parsers.parse('the last events of "{job}" are {names}'))
def last_events(store: EventStore, job: str, names: str) -> None:
    expected = [n.strip() for n in names.split(",")]
    rows = store.read_stream(f"stages-{job}")
    assert [r.event_type for r in rows[-len(expected) :]] == expected


@then("the failure and both blocks were appended in one transaction")
def one_transaction(store: EventStore, world: World) -> None:
    rows = store.read_all(after=world.head_before)
    assert [r.event_type for r in rows] == ["StageStarted", "StageFailed", "StageBlocked", "StageBlocked"]
    # one save = one append request: consecutive versions of one stream written together
    assert [r.stream_version for r in rows] == list(range(rows[0].stream_version, rows[0].stream_version + 4))


@then(parsers.parse('the write is rejected as TransitionRejected from {kind} by "{trigger}"'))
def write_rejected(world: World, kind: str, trigger: str) -> None:
    error = world.error
    assert isinstance(error, TransitionRejected)
    assert kind_of(error.state) == kind and error.trigger.value == trigger


@then(parsers.parse("the write is refused as {name}"))
def refused_as(world: World, name: str) -> None:
    assert type(world.error).__name__ == name


@then(parsers.parse('no event was appended for "{job}"'))
def nothing_appended(store: EventStore, world: World, job: str) -> None:
    assert store.head_position() == world.head_before


# -- ownership ----------------------------------------------------------------------------------
def _owner(wf: str, run: str, attempt: int) -> StageOwner:
    return StageOwner(wf, run, attempt)


@given(
    parsers.parse(
        'the {stage} stage of "{job}" was started by "{wf}" run "{run}" attempt {a:d} with baseline {b:d}'
    )
)
def started_with_baseline(
    store: EventStore, job: str, stage: Stage, wf: str, run: str, a: int, b: int
) -> None:
    owner = _owner(wf, run, a)
    change_job_stages(
        store, job, lambda s: s.start(stage, at=AT, owner=owner, baseline_version=b), owner=owner
    )


@given(parsers.parse('the {stage} stage of "{job}" was started by "{wf}" run "{run}" attempt {a:d}'))
@when(parsers.parse('the {stage} stage of "{job}" is started by "{wf}" run "{run}" attempt {a:d}'))
def started_by(store: EventStore, job: str, stage: Stage, wf: str, run: str, a: int) -> None:
    owner = _owner(wf, run, a)
    change_job_stages(store, job, lambda s: s.start(stage, at=AT, owner=owner), owner=owner)


@given(parsers.parse('attempt {a:d} of "{wf}" run "{run}" reconciled its rows with nothing committed'))
def reconciled_nothing(store: EventStore, clock: FixedClock, a: int, wf: str, run: str) -> None:
    reconcile_owned_stages(store, "j1", _owner(wf, run, a), clock=clock)


@when(
    parsers.parse(
        'attempt {a:d} of "{wf}" run "{run}" reconciles its rows and score version {v:d} is committed'
    )
)
def reconciles(store: EventStore, clock: FixedClock, world: World, a: int, wf: str, run: str, v: int) -> None:
    world.reconciled = reconcile_owned_stages(store, "j1", _owner(wf, run, a), {"score": v}, clock=clock)


@when(parsers.parse('attempt {a:d} of "{wf}" run "{run}" completes the {stage} stage of "{job}"'))
def late_complete(
    store: EventStore,
    world: World,
    a: int,
    wf: str,
    run: str,
    stage: Stage,
    job: str,
) -> None:
    owner = _owner(wf, run, a)
    _attempt(
        world,
        store,
        lambda: change_job_stages(
            store, job, lambda s: s.complete(stage, at=AT, duration_ms=1, owner=owner), owner=owner
        ),
    )


@then(parsers.parse('the {stage} stage of "{job}" is owned by "{wf}" run "{run}" attempt {a:d}'))
def owned_by(store: EventStore, job: str, stage: Stage, wf: str, run: str, a: int) -> None:
    state = load_job_stages(store, job).state(stage)
    assert isinstance(state, Running) and state.owner == _owner(wf, run, a)


@then(parsers.parse('the last event of "{job}" was written by "{wf}" run "{run}" attempt {a:d}'))
def written_by(store: EventStore, job: str, wf: str, run: str, a: int) -> None:
    meta = store.read_stream(f"stages-{job}")[-1].meta()
    assert (meta.workflow_id, meta.run_id, meta.attempt) == (wf, run, a)


@then(parsers.parse("the score row was accepted"))
def accepted(world: World) -> None:
    assert [(r.stage, r.outcome) for r in world.reconciled] == [("score", ReconcileOutcome.ACCEPTED)]


@then(parsers.parse("the score row became retryable"))
def retryable(world: World) -> None:
    assert [(r.stage, r.outcome) for r in world.reconciled] == [("score", ReconcileOutcome.RETRYABLE)]
