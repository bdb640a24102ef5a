"""``jobctrl demo``: the main job (grows into the whole pipeline as the runtime lands)."""

from __future__ import annotations

from datetime import UTC, datetime

from rich.console import Console
from rich.table import Table

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.ids import deterministic_id
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.orchestration.events import StageCompleted, StageStarted

console = Console()


def demo() -> None:
    """Append sample events to the local log and print it."""
    db = open_database()
    store = EventStore(db, registry())
    store.create_schema()
    now = datetime.now(UTC)
    for n in range(3):
        job_id = deterministic_id("demo-job", str(n))
        events = [
            NewEvent.of(
                JobDiscovered(
                    job_id=job_id,
                    posting_url=f"http://127.0.0.1/jobs/{n}",
                    source="sample-board",
                    employer=f"Employer {n}",
                    metadata={"title": f"Engineer {n}"},
                    discovered_at="2026-01-01T00:00:00.000Z",
                ),
                occurred_at=now,
                event_id=deterministic_id("demo-event", job_id, "discovered"),
            ),
            NewEvent.of(
                StageStarted(
                    job_id=job_id, stage="enrich", attempt_number=1, started_at="2026-01-01T00:00:01.000Z"
                ),
                occurred_at=now,
                event_id=deterministic_id("demo-event", job_id, "enrich-started"),
            ),
            NewEvent.of(
                StageCompleted(
                    job_id=job_id, stage="enrich", finished_at="2026-01-01T00:00:02.000Z", duration_ms=1000
                ),
                occurred_at=now,
                event_id=deterministic_id("demo-event", job_id, "enrich-completed"),
            ),
        ]
        store.append(f"job-{job_id}", None, events)
    table = Table(title=f"job_events in {db.engine.url.render_as_string(hide_password=True)}")
    for column in ("position", "stream", "version", "eventType", "occurredAt"):
        table.add_column(column)
    for row in store.read_all(limit=50):
        table.add_row(
            str(row.position), row.stream_id[:24], str(row.stream_version), row.event_type, row.occurred_at
        )
    console.print(table)
    db.dispose()
