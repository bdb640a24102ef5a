"""The job_events store on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest
from sqlalchemy import func, select

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.registry import EventValidationError, UnknownEventType
from jobctrl.kernel.store import (
    AppendRequest,
    ConcurrencyConflict,
    Database,
    EventStore,
    IdempotencyConflict,
    PayloadTooLarge,
    job_events,
)
from jobctrl.orchestration.events import PipelineStepQueued, StageStarted

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def discovered(n: int, **overrides: object) -> NewEvent:
    fields: dict[str, object] = {
        "job_id": f"job-{n}",
        "posting_url": f"https://jobs.example/{n}",
        "source": "greenhouse:acme",
        "employer": "Acme",
        "metadata": {"title": "Engineer"},
        "discovered_at": "2026-03-01T12:00:00.000Z",
    }
    fields.update(overrides)
    return NewEvent.of(JobDiscovered(**fields), occurred_at=NOW)  # type: ignore[arg-type]


def row_count(store: EventStore) -> int:
    with store.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(job_events)).scalar_one())


def test_append_assigns_growing_positions_and_stream_versions(store: EventStore) -> None:
    first = store.append("job-a", 0, [discovered(1), discovered(2)])
    second = store.append("job-b", 0, [discovered(3)])
    third = store.append("job-a", 2, [discovered(4)])
    assert first.positions == (1, 2) and first.stream_version == 2
    assert second.positions == (3,)
    assert third.positions == (4,) and third.stream_version == 3
    assert [e.stream_version for e in store.read_stream("job-a")] == [1, 2, 3]
    assert store.head_position() == 4


def test_round_trip_keeps_the_camel_case_envelope_and_metadata(store: EventStore) -> None:
    event = NewEvent.of(
        StageStarted(job_id="j", stage="score", attempt_number=2, started_at="2026-03-01T12:00:00.000Z"),
        occurred_at=NOW,
        tenant_id="local",
        correlation_id="corr-1",
        workflow_id="prep-x",
        run_id="run-1",
        attempt=3,
    )
    store.append("job-j", 0, [event])
    [stored] = store.read_all()
    assert msgspec.json.decode(stored.payload) == {
        "jobId": "j",
        "stage": "score",
        "attemptNumber": 2,
        "startedAt": "2026-03-01T12:00:00.000Z",
    }
    envelope = msgspec.to_builtins(stored.envelope())
    assert envelope["eventType"] == "StageStarted" and envelope["occurredAt"] == "2026-03-01T12:00:00.000Z"
    meta = stored.meta()
    assert (meta.event_id, meta.correlation_id, meta.workflow_id, meta.run_id, meta.attempt) == (
        event.event_id,
        "corr-1",
        "prep-x",
        "run-1",
        3,
    )
    assert registry().decode(stored) == event.event


def test_version_clash_raises_and_writes_nothing(store: EventStore) -> None:
    store.append("job-a", 0, [discovered(1)])
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("job-a", 0, [discovered(2), discovered(3)])
    assert caught.value.actual == 1 and caught.value.expected == 0
    assert row_count(store) == 1


def test_reappending_the_same_event_ids_is_an_idempotent_retry(store: EventStore) -> None:
    batch = [discovered(1), discovered(2)]
    first = store.append("job-a", 0, batch)
    retry = store.append("job-a", 0, batch)
    assert retry.idempotent_replay and retry.positions == first.positions
    assert row_count(store) == 2


def test_a_batch_mixing_stored_and_new_ids_is_refused(store: EventStore) -> None:
    stored = discovered(1)
    store.append("job-a", 0, [stored])
    with pytest.raises(IdempotencyConflict):
        store.append("job-a", 1, [stored, discovered(2)])
    assert row_count(store) == 1


def test_a_batch_is_all_or_nothing_across_streams(store: EventStore) -> None:
    store.append("job-b", 0, [discovered(9)])
    with pytest.raises(ConcurrencyConflict):
        store.append_batch(
            [AppendRequest("job-a", 0, [discovered(1)]), AppendRequest("job-b", 0, [discovered(2)])]
        )
    assert row_count(store) == 1 and store.read_stream("job-a") == []


def test_payload_over_the_size_limit_writes_nothing(database: Database) -> None:
    store = EventStore(database, registry(), max_payload_bytes=2048)
    store.create_schema()
    with pytest.raises(PayloadTooLarge):
        store.append("job-a", 0, [discovered(1), discovered(2, metadata={"blob": "x" * 4096})])
    assert row_count(store) == 0


def test_payload_that_fails_its_schema_writes_nothing(store: EventStore) -> None:
    bad_step = PipelineStepQueued(
        execution={"tenantId": "local", "workflowId": "discover-local", "temporalRunId": "r"},  # type: ignore[arg-type]
        step_kind="source_family",
        item_key="ats_api",
        attempt=0,  # attempts start at 1
        detail=None,
        queued_at="2026-03-01T12:00:00.000Z",
    )
    with pytest.raises(EventValidationError):
        store.append("disc", 0, [discovered(1), NewEvent.of(bad_step, occurred_at=NOW)])
    wrong_type = discovered(2, employer=42)
    with pytest.raises(EventValidationError):
        store.append("job-x", 0, [wrong_type])
    assert row_count(store) == 0


def test_read_all_pages_in_position_order_and_filters_types(store: EventStore) -> None:
    for n in range(10):
        store.append(f"job-{n}", 0, [discovered(n)])
    store.append(
        "job-s",
        0,
        [
            NewEvent.of(
                StageStarted(job_id="s", stage="enrich", attempt_number=1, started_at="x"), occurred_at=NOW
            )
        ],
    )
    page = store.read_all(after=3, limit=4)
    assert [e.position for e in page] == [4, 5, 6, 7]
    assert [e.event_type for e in store.read_all(types=["StageStarted"])] == ["StageStarted"]


def test_unknown_event_type_names_the_log_position(store: EventStore) -> None:
    store.append("job-a", 0, [discovered(1)])
    with store.db.write() as conn:
        conn.execute(job_events.update().values(event_type="NoSuchEvent"))
    [stored] = store.read_all()
    with pytest.raises(UnknownEventType) as caught:
        registry().decode(stored)
    assert caught.value.position == stored.position and "position 1" in str(caught.value)


def test_a_batch_whose_later_ids_are_stored_is_refused_and_leaves_the_transaction_usable(
    store: EventStore,
) -> None:
    stored = discovered(2)
    store.append("job-a", 0, [stored])
    with store.transaction() as tx:
        with pytest.raises(IdempotencyConflict):
            tx.append("job-b", 0, [discovered(1), stored, discovered(3)])
        tx.append("job-c", 0, [discovered(4)])  # the caller goes on: the refused rows must not commit
    assert [e.stream_id for e in store.read_all()] == ["job-a", "job-c"]
    assert store.read_stream("job-b") == []


def test_returned_positions_are_the_stored_positions_across_refusals(store: EventStore) -> None:
    returned: list[int] = []
    for n in range(6):
        returned.extend(
            store.append(f"job-{n % 2}", None, [discovered(10 * n), discovered(10 * n + 1)]).positions
        )
        with pytest.raises(ConcurrencyConflict):
            store.append(f"job-{n % 2}", 0, [discovered(10 * n + 5)])
    assert returned == [e.position for e in store.read_all()]


def test_a_batch_repeating_an_event_id_or_an_unregistered_event_writes_nothing(store: EventStore) -> None:
    class NotRegistered(DomainEvent, frozen=True):
        event_type = "NotRegistered"
        job_id: str

    twice = discovered(1)
    with pytest.raises(IdempotencyConflict):
        store.append("job-a", 0, [twice, twice])
    with pytest.raises(UnknownEventType):
        store.append("job-a", 0, [discovered(2), NewEvent.of(NotRegistered(job_id="x"), occurred_at=NOW)])
    with pytest.raises(ValueError, match="at least one event"):
        store.append("job-a", 0, [])
    assert row_count(store) == 0


def test_an_unregistered_class_under_a_registered_name_writes_nothing(store: EventStore) -> None:
    # The append path looks the class up, not the name (ADR 0364): a look-alike is still refused.
    class LookAlike(DomainEvent, frozen=True):
        event_type = "JobDiscovered"
        job_id: str

    with pytest.raises(UnknownEventType):
        store.append("job-a", 0, [discovered(1), NewEvent.of(LookAlike(job_id="x"), occurred_at=NOW)])
    assert row_count(store) == 0


def test_a_batch_with_a_later_id_stored_is_refused_and_writes_nothing(store: EventStore) -> None:
    stored = discovered(2)
    store.append("job-a", 0, [stored])
    with pytest.raises(IdempotencyConflict):
        store.append_batch(
            [AppendRequest("job-c", 0, [discovered(5)]), AppendRequest("job-b", 0, [discovered(1), stored])]
        )
    assert row_count(store) == 1
    assert store.append("job-b", 0, [discovered(1)]).positions[0] == store.head_position()


def test_a_new_stream_append_without_the_probe_still_tells_a_retry_from_a_clash(store: EventStore) -> None:
    # Expected version 0 skips the probe (ADR 0355): the unique constraints and the diagnosis after
    # a refused insert must give the same answers the probe gave, on the driver path and in a
    # transaction whose caller goes on after the refusal.
    one, pair_events = [discovered(1)], [discovered(3), discovered(4)]
    first = store.append("job-a", 0, one)
    retry = store.append("job-a", 0, one)
    assert retry.idempotent_replay and retry.positions == first.positions and retry.stream_version == 1
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("job-a", 0, [discovered(2)])
    assert caught.value.expected == 0 and caught.value.actual == 1
    with store.transaction() as tx:
        pair = tx.append("job-b", 0, pair_events)
    with store.transaction() as tx:
        again = tx.append("job-b", 0, pair_events)
        with pytest.raises(ConcurrencyConflict) as clash:
            tx.append("job-b", 0, [discovered(5), discovered(6)])
        with pytest.raises(IdempotencyConflict):
            tx.append("job-c", 0, [discovered(7), pair_events[1]])
        tx.append("job-d", 0, [discovered(8)])
    assert again.idempotent_replay and again.positions == pair.positions and again.stream_version == 2
    assert clash.value.actual == 2
    assert [e.stream_id for e in store.read_all()] == ["job-a", "job-b", "job-b", "job-d"]
    assert store.append("job-e", 0, [discovered(9)]).positions == (store.head_position(),)
