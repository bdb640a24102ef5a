"""The stage-rejection rule, guarded a second time: a unit of work whose later write is rejected
appends none of its writes, not even the allowed ones before it (the BDD scenario covers a lone
rejected write)."""

from __future__ import annotations

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import change_job_stages, load_job_stages
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner, kind_of
from jobctrl.orchestration.domain.stages.transitions import TransitionRejected

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]
AT = "2026-03-01T09:00:00.000Z"
OWNER = StageOwner("wf-1", "run-1", 1)


def test_a_unit_with_a_rejected_write_appends_none_of_its_writes(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    clock = FixedClock()

    def score_done(s: JobStages) -> None:
        s.start("score", at=AT, owner=OWNER)
        s.complete("score", at=AT, duration_ms=5, owner=OWNER)

    change_job_stages(store, "j1", score_done, owner=OWNER, clock=clock)
    head, version = store.head_position(), load_job_stages(store, "j1").version

    def allowed_then_rejected(s: JobStages) -> None:
        s.enqueue("enrich", at=AT)  # allowed from Pending
        s.unblock("apply", at=AT)  # Pending by Unblock: rejected

    with pytest.raises(TransitionRejected) as rejected:
        change_job_stages(store, "j1", allowed_then_rejected, owner=OWNER, clock=clock)
    assert kind_of(rejected.value.state) == "Pending" and rejected.value.trigger.value == "Unblock"
    assert store.head_position() == head
    reloaded = load_job_stages(store, "j1")
    assert reloaded.version == version
    assert kind_of(reloaded.state("enrich")) == "Pending" and kind_of(reloaded.state("score")) == "Succeeded"
