"""Position order equals commit order: concurrent writers against a concurrent follower (ADR 0003).

Several writer threads append batches to many streams while a follower polls
``read_all(after=last_seen)``.  If a transaction could commit a position below one the follower had
already passed, the follower would never see it: its log would then differ from the final log.
The test checks the follower saw every committed event exactly once, in position order, that the
positions have no gaps, and that each writer's commits got growing positions in the order it
committed them.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime

import pytest

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import AppendRequest, Database, EventStore

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 1, tzinfo=UTC)
WRITERS = 4
COMMITS_PER_WRITER = 25
STREAMS = 12


def _event(tag: str) -> NewEvent:
    return NewEvent.of(
        JobDiscovered(
            job_id=tag,
            posting_url=f"https://jobs.example/{tag}",
            source="lever:acme",
            employer="Acme",
            metadata={},
            discovered_at="2026-03-01T00:00:00.000Z",
        ),
        occurred_at=NOW,
    )


def test_a_follower_sees_every_commit_once_in_order_under_concurrent_writers(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    done = threading.Event()
    errors: list[BaseException] = []
    committed: dict[int, list[tuple[int, ...]]] = {w: [] for w in range(WRITERS)}
    followed: list[tuple[int, str]] = []

    def writer(w: int) -> None:
        rng = random.Random(w)
        try:
            for c in range(COMMITS_PER_WRITER):
                # One or two streams per transaction, 1-5 events each.  Each writer has streams of
                # its own, so no version clash can mask an ordering fault: without the PostgreSQL
                # table lock this test fails on the follower's log, not on a conflict.
                requests = [
                    AppendRequest(
                        f"stream-{w}-{rng.randrange(STREAMS)}",
                        None,
                        [_event(f"w{w}-c{c}-r{r}-e{e}") for e in range(rng.randint(1, 5))],
                    )
                    for r in range(rng.randint(1, 2))
                ]
                results = store.append_batch(requests)
                committed[w].append(tuple(p for res in results for p in res.positions))
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    def follower() -> None:
        last = 0
        try:
            while True:
                finished = done.is_set()  # read before polling: a final pass after the last commit
                page = store.read_all(after=last, limit=37)
                followed.extend((row.position, row.event_id) for row in page)
                if page:
                    last = page[-1].position
                elif finished:
                    return
                else:
                    time.sleep(0.001)
        except BaseException as exc:
            errors.append(exc)

    follow = threading.Thread(target=follower)
    writers = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    follow.start()
    for t in writers:
        t.start()
    for t in writers:
        t.join(timeout=120)
    done.set()
    follow.join(timeout=120)

    assert not errors, errors
    log = [(row.position, row.event_id) for row in store.read_all(limit=100_000)]
    assert followed == log  # every committed event, exactly once, in position order
    positions = [p for p, _ in log]
    assert positions == list(range(1, len(log) + 1))  # no gaps, no repeats
    for w, commits in committed.items():
        flat = [p for commit in commits for p in commit]
        assert flat == sorted(flat), f"writer {w}'s later commit got a lower position"
    assert len(log) == sum(len(c) for commits in committed.values() for c in commits)
    for stream in {f"stream-{s}" for s in range(STREAMS)}:
        versions = [e.stream_version for e in store.read_stream(stream)]
        assert versions == list(range(1, len(versions) + 1))
