"""The world of features/projections: past events go into the log; the runner folds them when a
Then step reads a read model."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.runner import ProjectionRunner

AT = "2026-03-01T09:00:00.000Z"
EXECUTION = ExecutionRefPayload(tenant_id="local", workflow_id="discover-local", temporal_run_id="r1")


@dataclass
class World:
    store: EventStore
    digests: dict[str, str] = field(default_factory=dict)
    healed: list[str] = field(default_factory=list)

    def append(self, event: DomainEvent, workflow_id: str | None = None, run_id: str | None = None) -> None:
        new = NewEvent.of(
            event, occurred_at=datetime(2026, 3, 1, 9, tzinfo=UTC), workflow_id=workflow_id, run_id=run_id
        )
        self.store.append("feature", None, [new])

    def fold(self) -> Database:
        ProjectionRunner(self.store.db, self.store.registry, batch_size=3).catch_up()
        return self.store.db
