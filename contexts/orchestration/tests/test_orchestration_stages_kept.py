"""A job's stage writes keep the aggregate their last save left (ADR 0363): the next unit on the job
starts from it without reloading, and any write by someone else since makes that unit be decided
again on the stream as stored, so no decision is ever made on stale state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import change_job_stages, load_job_stages
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner, kind_of
from jobctrl.orchestration.domain.stages.transitions import TransitionRejected
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]
AT = "2026-03-01T09:00:00.000Z"
OWNER = StageOwner("wf-1", "run-1", 1)
T = TypeVar("T")


class Worker:
    """One worker's writes (they keep their aggregates), counting how often a stream is loaded."""

    def __init__(self, store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store, self.kept, self.loads = store, StagesCache(), 0
        real = AggregateRepository.load

        def counting(repo: AggregateRepository[Any], aggregate_id: str) -> Any:
            self.loads += 1
            return real(repo, aggregate_id)

        monkeypatch.setattr(AggregateRepository, "load", counting)

    def run(self, transitions: Callable[[JobStages], T]) -> T:
        return change_job_stages(
            self.store, "j1", transitions, owner=OWNER, clock=FixedClock(), kept=self.kept
        )


def _store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


def _elsewhere(store: EventStore, transitions: Callable[[JobStages], object]) -> None:
    """Another process's write (the API's retry, the reconciler): no kept aggregate of ours."""
    change_job_stages(store, "j1", transitions, owner=OWNER, clock=FixedClock())


def test_a_step_begun_then_completed_loads_the_stream_once(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker(_store(database), monkeypatch)
    worker.run(lambda s: s.start("score", at=AT, owner=OWNER))
    worker.run(lambda s: s.complete("score", at=AT, duration_ms=5, owner=OWNER))
    worker.run(lambda s: s.start("tailor", at=AT, owner=OWNER))
    assert worker.loads == 1
    stored = load_job_stages(worker.store, "j1")
    assert stored.version == 3
    assert kind_of(stored.state("score")) == "Succeeded" and kind_of(stored.state("tailor")) == "Running"


def test_a_write_by_someone_else_makes_the_unit_decide_again_on_the_stored_stream(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker(_store(database), monkeypatch)
    worker.run(lambda s: s.start("score", at=AT, owner=OWNER))
    _elsewhere(
        worker.store,
        lambda s: s.fail("score", error_code="x", error_message="x", retryable=True, at=AT, owner=OWNER),
    )
    seen: list[str] = []

    def reset_if_failed(s: JobStages) -> None:
        seen.append(kind_of(s.state("score")))
        if kind_of(s.state("score")) == "Failed":
            s.reset("score", at=AT)
        else:
            s.complete("score", at=AT, duration_ms=5, owner=OWNER)

    worker.run(reset_if_failed)
    # Decided first on the kept (stale) aggregate, refused by the save, decided again on the stream.
    assert seen == ["Running", "Failed"]
    stored = load_job_stages(worker.store, "j1")
    assert kind_of(stored.state("score")) == "Pending" and stored.version == 3


def test_a_unit_that_decides_nothing_is_answered_from_the_stored_stream(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker(_store(database), monkeypatch)
    worker.run(lambda s: s.start("score", at=AT, owner=OWNER))
    _elsewhere(worker.store, lambda s: s.complete("score", at=AT, duration_ms=5, owner=OWNER))
    # Nothing to save means nothing checks the kept aggregate: the answer comes from a fresh load.
    assert worker.run(lambda s: kind_of(s.state("score"))) == "Succeeded"


def test_a_refusal_on_the_kept_aggregate_is_decided_again_on_the_stored_stream(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker(_store(database), monkeypatch)
    worker.run(lambda s: s.start("score", at=AT, owner=OWNER))
    _elsewhere(worker.store, lambda s: s.complete("score", at=AT, duration_ms=5, owner=OWNER))
    seen: list[str] = []

    def start_again(s: JobStages) -> None:
        seen.append(kind_of(s.state("score")))
        s.start("score", at=AT, owner=OWNER)

    with pytest.raises(TransitionRejected):
        worker.run(start_again)
    assert seen == ["Running", "Succeeded"]  # refused on the kept state, then refused for real
    assert load_job_stages(worker.store, "j1").version == 2
