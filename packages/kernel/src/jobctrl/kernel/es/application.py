"""``JobCtrlApplication``: the library's ``Application`` over job_events for one aggregate class.

The library's ``Repository`` loads aggregates (latest snapshot, then the events after it) and its
``Application.save`` collects pending events, maps them and hands them to our recorder.  The
environment is the one given, never ``os.environ``: persistence is fixed by the store passed in.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore as LibraryEventStore
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from jobctrl.kernel.es.factory import JobCtrlInfrastructureFactory
from jobctrl.kernel.es.snapshots import Snapshot, SnapshotCodec, SnapshotMapper
from jobctrl.kernel.store.event_store import EventStore


class JobCtrlApplication(Application[str]):
    name = "JobCtrl"
    snapshot_class = Snapshot

    def __init__(self, store: EventStore, codec: SnapshotCodec | None = None) -> None:
        self._store = store
        self._codec = codec
        super().__init__(env={})

    def construct_env(self, name: str, env: Any = None) -> Environment:
        return Environment(name, dict(env or {}))

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        return JobCtrlInfrastructureFactory(env, store=self._store, codec=self._codec)

    def construct_snapshot_store(self) -> LibraryEventStore[str]:
        assert self._codec is not None  # only called when the factory enables snapshots
        return LibraryEventStore(
            mapper=SnapshotMapper(self._codec), recorder=self.factory.aggregate_recorder("snapshots")
        )
