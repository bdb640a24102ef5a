"""A batch is encoded with each class's lookups made once per run of one class (ADR 0440).

``encode_events`` of several events must give exactly what ``encode_one`` gives event by event (the
path a one-event append takes), refuse exactly what it refuses with the same error, and hand back
plain tuples, which the cyclic GC stops tracking at its first look.
"""

from __future__ import annotations

import gc
from datetime import UTC, datetime

import msgspec
import pytest
from sqlalchemy import select

from jobctrl.discovery.events import DiscoveryRunStarted, JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.registry import EventValidationError, UnknownEventType
from jobctrl.kernel.store import EventStore, PayloadTooLarge, job_events
from jobctrl.kernel.store.encoding import ENCODED_FIELDS, encode_events, encode_one
from jobctrl.orchestration.events import PipelineStepQueued, StageStarted

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LIMIT = 2048


class OnlyInATestRegistry(DomainEvent, frozen=True):
    event_type = "TestOnlyInATestRegistry"
    job_id: str
    note: str


def _new(event: DomainEvent, n: int = 0) -> NewEvent:
    return NewEvent.of(event, occurred_at=NOW, correlation_id=f"c-{n}", attempt=n or None)


def discovered(n: int, **overrides: object) -> NewEvent:
    fields: dict[str, object] = {
        "job_id": f"job-{n}",
        "posting_url": f"https://jobs.example/{n}",
        "source": "greenhouse:acme",
        "employer": "Acme",
        "metadata": {"title": "Engineer", "n": n},
        "discovered_at": "2026-03-01T12:00:00.000Z",
    }
    fields.update(overrides)
    return _new(JobDiscovered(**fields), n)  # type: ignore[arg-type]


def step(attempt: int = 1) -> NewEvent:
    return _new(
        PipelineStepQueued(
            execution={"tenantId": "local", "workflowId": "discover-local", "temporalRunId": "r"},  # type: ignore[arg-type]
            step_kind="source_family",
            item_key="ats_api",
            attempt=attempt,
            detail=None,
            queued_at="2026-03-01T12:00:00.000Z",
        )
    )


def mixed_batch() -> list[NewEvent]:
    """Runs of one class, a class with no ``job_id``, one with no plain check, and a class seen again."""
    return [
        discovered(1),
        discovered(2),
        _new(DiscoveryRunStarted(run_id="r", source_ids=["a"], profile_snapshot_id=None, started_at="t")),
        step(),  # no plain check: always the typed decode
        _new(StageStarted(job_id="s", stage="score", attempt_number=2, started_at="t"), 3),
        discovered(4, employer="Ärger & Söhne"),
        step(2),
        discovered(5),
    ]


def test_a_batch_encodes_exactly_as_event_by_event_into_plain_tuples() -> None:
    reg = registry()
    batch = mixed_batch()
    encoded = encode_events(reg, LIMIT, batch)
    assert encoded == [encode_one(reg, LIMIT, new) for new in batch]
    assert all(type(e) is tuple and len(e) == len(ENCODED_FIELDS) for e in encoded)
    job_ids = [e[ENCODED_FIELDS.index("job_id")] for e in encoded]
    assert job_ids == ["job-1", "job-2", None, None, "s", "job-4", None, "job-5"]
    gc.collect(1)
    assert not any(gc.is_tracked(e) for e in encoded)  # text and numbers only: dropped from the GC's lists


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (discovered(9, employer=42), EventValidationError),  # fails JobDiscovered's plain check
        (step(attempt=0), EventValidationError),  # no plain check: the decode refuses it
        (discovered(9, metadata={"blob": "x" * LIMIT}), PayloadTooLarge),
        (_new(OnlyInATestRegistry(job_id="j", note="n")), UnknownEventType),
    ],
    ids=["plain-check-fails", "decode-fails", "too-large", "unregistered"],
)
def test_a_refused_event_in_a_batch_raises_what_encode_one_raises(
    bad: NewEvent, error: type[Exception]
) -> None:
    reg = registry()
    with pytest.raises(error) as alone:
        encode_one(reg, LIMIT, bad)
    for position in (0, 3, 8):
        batch = mixed_batch()
        batch.insert(position, bad)
        with pytest.raises(error) as in_batch:
            encode_events(reg, LIMIT, batch)
        assert str(in_batch.value) == str(alone.value)


def test_whether_a_class_is_registered_is_asked_of_the_registry_in_hand() -> None:
    wider = registry().extended([OnlyInATestRegistry])
    ours = [discovered(1), _new(OnlyInATestRegistry(job_id="j", note="n")), discovered(2)]
    assert [e[1] for e in encode_events(wider, LIMIT, ours)] == [
        "JobDiscovered",
        "TestOnlyInATestRegistry",
        "JobDiscovered",
    ]
    # The class's plan is cached now; the registry without it must still refuse it.
    with pytest.raises(UnknownEventType):
        encode_events(registry(), LIMIT, ours)


@pytest.mark.both_databases
def test_a_mixed_batch_is_stored_as_its_events_are_one_by_one(store: EventStore) -> None:
    batch = mixed_batch()
    store.append("batch", 0, batch)
    for n, new in enumerate(batch):
        fresh_id = msgspec.structs.replace(new.metadata, event_id=f"single-{n}")
        store.append(f"single-{n}", 0, [msgspec.structs.replace(new, metadata=fresh_id)])
    columns = [job_events.c[name] for name in ENCODED_FIELDS if name not in ("event_id", "metadata")]
    with store.db.read() as conn:
        rows = conn.execute(select(job_events.c.stream_id, *columns).order_by(job_events.c.position)).all()
    in_batch = [tuple(r[1:]) for r in rows if r[0] == "batch"]
    one_by_one = [tuple(r[1:]) for r in rows if r[0] != "batch"]
    assert len(in_batch) == len(batch) and in_batch == one_by_one
