"""Helpers of the reliability suite that run in their own processes.

``python -m jobctrl.testing.reliability URL WRITER COUNT`` appends COUNT one-event transactions as
writer WRITER (event ids ``w{WRITER}-{i}``) and prints a JSON list of the errors its caller saw
(empty when every append succeeded).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.orchestration.events import StageStarted


def append_as_writer(url: str, writer: int, count: int) -> list[str]:
    db = open_database(url)
    store = EventStore(db, registry())
    errors: list[str] = []
    try:
        for i in range(count):
            event = StageStarted(
                job_id=f"w{writer}-{i}",
                stage="enrich",
                attempt_number=1,
                started_at="2026-03-01T09:00:00.000Z",
            )
            new = NewEvent.of(event, occurred_at=datetime.now(UTC), event_id=f"w{writer}-{i}")
            try:
                store.append(f"job-w{writer}-{i}", None, [new])
            except Exception as exc:  # reported to the test, which counts them
                errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        db.dispose()
    return errors


if __name__ == "__main__":
    print(json.dumps(append_as_writer(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
