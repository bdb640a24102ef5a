"""The sample job board with one listing held until the test releases it, composed for a worker: a
Discover run's first family stays crawling for as long as a test needs to cancel or terminate it."""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.composition.root import Composition

LISTING = "/v0/postings/initech"  # the listing of the board's "lever-initech" source


@dataclass
class HeldBoard:
    board: SampleJobBoard
    release: threading.Event
    comp: Composition

    def asked(self) -> int:
        return len(self.board.server.requests_to(LISTING))


@contextmanager
def held_board(
    database: Database, store: EventStore, artifacts_root: Path, source_ids: Collection[str]
) -> Iterator[HeldBoard]:
    """The board's ``source_ids`` registered and composed; ``LISTING`` answers once released."""
    release = threading.Event()
    with SampleJobBoard() as board:
        board.server.hold_route(LISTING, release)
        sources = [s for s in board.sources() if s.source_id in source_ids]
        comp = Composition.build(database, store, sources=lambda: sources, artifacts_root=artifacts_root)
        register_sources(comp.store, sources, clock=comp.clock)
        try:
            yield HeldBoard(board, release, comp)
        finally:
            release.set()  # a still-crawling activity gets its answer and the worker can stop
            comp.close()
