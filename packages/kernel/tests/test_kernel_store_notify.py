"""PostgreSQL appends wake LISTENing followers with the last committed position (ADR 0003)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import psycopg
import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import AppendRequest, ConcurrencyConflict, EventStore, open_database
from jobctrl.kernel.store.commits import listen_for_commits
from jobctrl.testing.discovered import discovered
from jobctrl.testing.plugin import PgSchema

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_store() -> Iterator[tuple[EventStore, str]]:
    schema = PgSchema()
    db = open_database(schema.url)
    try:
        # A channel of its own: other test runs on the same database notify on the default one.
        store = EventStore(db, registry(), notify_channel=f"job_events_{schema.name}")
        store.create_schema()
        yield store, schema.url
    finally:
        db.dispose()
        schema.drop()


def _event(n: int) -> NewEvent:
    return discovered(f"j{n}", n, source="lever:acme")


def test_each_commit_notifies_its_last_position_and_a_refused_one_notifies_nothing(
    pg_store: tuple[EventStore, str],
) -> None:
    store, url = pg_store
    libpq_url = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(libpq_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {store.notify_channel}")
        store.append_batch(
            [AppendRequest("a", 0, [_event(1), _event(2)]), AppendRequest("b", 0, [_event(3)])]
        )
        with store.transaction() as tx:
            tx.append("c", 0, [_event(4)])
        with pytest.raises(ConcurrencyConflict):
            store.append("a", 0, [_event(5)])
        payloads = [n.payload for n in listener.notifies(timeout=1.0, stop_after=3)]
    assert payloads == ["3", "4"]


def test_listen_for_commits_hears_an_append_committed_on_another_connection(
    pg_store: tuple[EventStore, str],
) -> None:
    """What a reader in another process relies on: the append's own ``pg_notify`` (ADR 0235)."""
    store, _url = pg_store

    async def scenario() -> list[int]:
        heard: asyncio.Queue[int] = asyncio.Queue()
        listener = asyncio.create_task(
            listen_for_commits(store.db.engine.url, store.notify_channel, heard.put_nowait)
        )
        try:
            async with asyncio.timeout(5):
                while True:  # the LISTEN may not be in place yet: append until one is heard
                    result = await asyncio.to_thread(
                        store.append, f"s{store.head_position()}", None, [_event(1)]
                    )
                    try:
                        async with asyncio.timeout(0.3):
                            return [await heard.get(), result.last_position]
                    except TimeoutError:
                        continue
        finally:
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)

    got, committed = asyncio.run(scenario())
    assert got == committed
