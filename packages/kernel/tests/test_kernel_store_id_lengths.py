"""``EventStore`` bounds every id by its column itself (ADR 0240): an over-long stream id, event id,
tenant id or job id is the typed ``IdTooLong`` naming the field, on SQLite and PostgreSQL alike, and
nothing of the append is written; a value exactly at the limit is stored."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest
from sqlalchemy import func, select

from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.registry import EventValidationError
from jobctrl.kernel.store import AppendRequest, EventStore, IdTooLong, job_events

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def discovered(job_id: str = "job-1", *, event_id: str | None = None, tenant: str = "local") -> NewEvent:
    event = JobDiscovered(
        job_id=job_id,
        posting_url="https://jobs.example/1",
        source="greenhouse:acme",
        employer="Acme",
        metadata={"title": "Engineer"},
        discovered_at="2026-03-01T12:00:00.000Z",
    )
    return NewEvent.of(event, occurred_at=NOW, event_id=event_id, tenant_id=tenant)


def rows(store: EventStore) -> int:
    with store.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(job_events)).scalar_one())


@pytest.mark.parametrize(
    ("field", "limit", "stream", "make"),
    [
        ("stream_id", 200, "s" * 201, discovered),
        ("event_id", 64, "job-1", lambda: discovered(event_id="e" * 65)),
        ("tenant_id", 64, "job-1", lambda: discovered(tenant="t" * 65)),
        ("job_id", 200, "job-1", lambda: discovered("j" * 201)),
        ("occurred_at", 40, "job-1", lambda: msgspec.structs.replace(discovered(), occurred_at="9" * 41)),
    ],
)
def test_an_over_long_id_is_refused_by_name_and_writes_nothing(
    store: EventStore, field: str, limit: int, stream: str, make: object
) -> None:
    with pytest.raises(IdTooLong) as refused:
        store.append(stream, 0, [make()])  # type: ignore[operator]
    assert refused.value.field == field and refused.value.limit == limit
    assert refused.value.code == "id_too_long" and isinstance(refused.value, EventValidationError)
    assert rows(store) == 0


def test_ids_exactly_at_their_limits_are_stored(store: EventStore) -> None:
    result = store.append("s" * 200, 0, [discovered("j" * 200, event_id="e" * 64, tenant="t" * 64)])
    [stored] = store.read_stream("s" * 200)
    assert result.positions == (1,) and stored.event_id == "e" * 64 and stored.tenant_id == "t" * 64


def test_one_over_long_stream_in_a_batch_writes_none_of_the_batch(store: EventStore) -> None:
    good = AppendRequest("job-1", 0, [discovered()])
    bad = AppendRequest("x" * 201, 0, [discovered("job-2")])
    with pytest.raises(IdTooLong):
        store.append_batch([good, bad])
    assert rows(store) == 0


def test_a_transaction_that_catches_the_refusal_keeps_nothing_of_it(store: EventStore) -> None:
    with store.transaction() as tx:
        with pytest.raises(IdTooLong):
            tx.append("job-1", 0, [discovered(event_id="e" * 65)])
        tx.append("job-2", 0, [discovered("job-2")])  # the transaction is still usable
    assert [e.stream_id for e in store.read_all(after=0)] == ["job-2"]


@pytest.mark.parametrize(
    ("field", "over_long"),
    [
        ("event_id", lambda: discovered("job-3", event_id="e" * 65)),
        ("job_id", lambda: discovered("j" * 201)),
        ("tenant_id", lambda: discovered("job-3", tenant="t" * 65)),
    ],
)
def test_one_over_long_id_deep_in_a_batch_is_named_and_writes_none_of_it(
    store: EventStore, field: str, over_long: object
) -> None:
    # A batch is checked column by column at once (ADR 0364); the refusal still names the field.
    batch = [discovered(f"job-{n}") for n in range(10, 20)]
    batch[7] = over_long()  # type: ignore[operator]
    with pytest.raises(IdTooLong) as refused:
        store.append("job-batch", 0, batch)
    assert refused.value.field == field
    assert rows(store) == 0
    store.append("job-batch", 0, batch[:7])  # the same batch without it is stored whole
    assert rows(store) == 7
