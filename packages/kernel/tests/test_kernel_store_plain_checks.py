"""The append path proves most events decode without decoding them (ADR 0405).

``plain_check(cls)`` is decided once per class; its ``True`` must be *sufficient* for the class's
typed decode to pass, so every value below that the decode refuses must get ``False`` (and then the
decode, which raises the typed error).  The store tests run on SQLite and PostgreSQL: a bad value
in a class with a plain check, or one that breaks a constraint the check does not model, is still
the typed ``EventValidationError`` and writes nothing.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import msgspec
import pytest
from sqlalchemy import func, select

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.registry import EventValidationError
from jobctrl.kernel.store import EventStore, job_events
from jobctrl.kernel.store.checks import plain_check

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Inner(msgspec.Struct, frozen=True):
    name: str
    count: int = 0


class Plain(DomainEvent, frozen=True):
    event_type = "TestPlainChecked"
    job_id: str
    count: int
    ratio: float
    flag: bool
    kind: Literal["a", "b"]
    level: Literal[1, 2]
    data: dict[str, Any]
    tags: list[str]
    inner: Inner
    maybe: str | None = None
    anything: Any = None


class Bounded(DomainEvent, frozen=True):
    event_type = "TestBoundedChecked"
    job_id: str
    attempt: Annotated[int, msgspec.Meta(ge=1, lt=10)]
    code: Annotated[str, msgspec.Meta(min_length=1, max_length=3)]


class Patterned(DomainEvent, frozen=True):
    event_type = "TestPatternedChecked"
    job_id: str
    reason: Annotated[str, msgspec.Meta(pattern=r"^[a-z]+$")]


class PostInit(DomainEvent, frozen=True):
    event_type = "TestPostInitChecked"
    job_id: str

    def __post_init__(self) -> None:
        if self.job_id == "bad":
            raise ValueError("no bad jobs")


def plain(**changes: Any) -> Plain:
    good = Plain(
        job_id="job-1",
        count=3,
        ratio=0.5,
        flag=True,
        kind="a",
        level=2,
        data={"title": "Engineer", "n": [1, 2]},
        tags=["x", "y"],
        inner=Inner(name="n"),
    )
    return msgspec.structs.replace(good, **changes)  # replace does not validate, like construction


def decodes(event: DomainEvent) -> bool:
    try:
        msgspec.json.decode(msgspec.json.encode(event), type=type(event))
    except msgspec.ValidationError:
        return False
    return True


BAD_PLAIN: list[dict[str, Any]] = [
    {"job_id": 5},
    {"job_id": None},
    {"count": True},
    {"count": "3"},
    {"count": 1.0},
    {"ratio": math.nan},
    {"ratio": math.inf},
    {"ratio": "0.5"},
    {"flag": 1},
    {"kind": "c"},
    {"kind": 1},
    {"level": 3},
    {"level": True},
    {"level": "1"},
    {"data": [("k", "v")]},
    {"data": "x"},
    {"tags": ["x", 2]},
    {"tags": "xy"},
    {"tags": [None]},
    {"inner": {"name": 5}},
    {"inner": Inner(name=5)},  # type: ignore[arg-type]
    {"inner": Inner(name="n", count="1")},  # type: ignore[arg-type]
    {"maybe": 7},
]


def test_the_plain_check_passes_a_good_event_and_its_decode_agrees() -> None:
    check = plain_check(Plain)
    assert check is not None
    for event in (plain(), plain(maybe="m", anything={"x": [1.5]}, ratio=-2.0, data={}, tags=[])):
        assert check(event) and decodes(event)


@pytest.mark.parametrize("changes", BAD_PLAIN, ids=[f"{k}={v!r}" for c in BAD_PLAIN for k, v in c.items()])
def test_an_unconstrained_class_cannot_pass_a_value_its_decode_refuses(changes: dict[str, Any]) -> None:
    check = plain_check(Plain)
    assert check is not None
    event = plain(**changes)
    assert not decodes(event), "the case must be one the typed decode refuses"
    assert not check(event)


def test_modelled_bounds_are_checked_and_unmodelled_ones_keep_the_decode() -> None:
    check = plain_check(Bounded)
    assert check is not None
    assert check(Bounded(job_id="j", attempt=1, code="abc"))
    for attempt, code in ((0, "a"), (10, "a"), (1, ""), (1, "abcd")):
        event = Bounded(job_id="j", attempt=attempt, code=code)
        assert not decodes(event) and not check(event)
    assert plain_check(Patterned) is None  # a pattern is left to the decode
    assert plain_check(PostInit) is None  # decode runs __post_init__: only it can prove it passes


def test_the_registry_bench_event_has_a_plain_check() -> None:
    # The bench's event, and most of the registry, skip the decode; what does not is named here so a
    # rule that stops covering the common fields shows up as a test failure, not as a slow append.
    assert plain_check(JobDiscovered) is not None
    covered = [c for c in registry().classes if plain_check(c) is not None]
    assert len(covered) >= 100


# -- through the store, on both databases -----------------------------------------------------------
def new(event: DomainEvent) -> NewEvent:
    return NewEvent.of(event, occurred_at=NOW)


def rows(store: EventStore) -> int:
    with store.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(job_events)).scalar_one())


@pytest.fixture
def checked_store(store: EventStore) -> EventStore:
    return EventStore(store.db, store.registry.extended([Plain, Bounded, Patterned, PostInit]))


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "event",
    [
        plain(job_id=5),
        plain(tags=["x", 2]),
        plain(ratio=math.nan),
        msgspec.structs.replace(
            JobDiscovered(
                job_id="j",
                posting_url="u",
                source="s",
                employer="e",
                metadata={},
                discovered_at="2026-03-01T12:00:00.000Z",
            ),
            employer=None,
        ),
        Bounded(job_id="j", attempt=0, code="a"),
        Patterned(job_id="j", reason="Not Lower"),
    ],
    ids=["wrong-type", "wrong-item", "nan", "registered-unconstrained", "bound", "pattern"],
)
def test_a_bad_event_is_the_typed_error_and_writes_nothing(
    checked_store: EventStore, event: DomainEvent
) -> None:
    good = new(plain(job_id="job-ok"))
    with pytest.raises(EventValidationError):
        checked_store.append("job-1", 0, [good, new(event)])
    assert rows(checked_store) == 0


@pytest.mark.both_databases
def test_good_events_of_every_kind_are_stored_as_encoded(checked_store: EventStore) -> None:
    events = [plain(), plain(maybe="m", anything=[1, "x"]), Bounded(job_id="j", attempt=9, code="ab")]
    events.append(Patterned(job_id="j", reason="fine"))
    checked_store.append("job-1", 0, [new(e) for e in events])
    stored = checked_store.read_stream("job-1")
    assert [checked_store.registry.decode(s) for s in stored] == events
    assert [s.payload for s in stored] == [msgspec.json.encode(e) for e in events]
