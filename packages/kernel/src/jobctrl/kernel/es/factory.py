"""The infrastructure factory the library's ``Application`` builds its persistence from (ADR 0005).

It replaces the library's environment-selected persistence modules (``eventsourcing.sqlite``,
``eventsourcing.postgres`` and their ``stored_events`` tables): whatever the environment says, the
recorder is ``JobEventsRecorder`` over our ``EventStore`` and the mapper is ``JobEventsMapper``.
Tracking and process recorders are not offered: JobCtrl's followers (projections, SSE) keep their
own watermark beside their read models.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    Mapper,
    ProcessRecorder,
    TrackingRecorder,
    Transcoder,
)
from eventsourcing.utils import Environment

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.es.mapper import JobEventsMapper, MsgspecTranscoder
from jobctrl.kernel.es.recorder import JobEventsRecorder, SnapshotRecorder
from jobctrl.kernel.es.snapshots import SnapshotCodec
from jobctrl.kernel.store.event_store import EventStore


class JobCtrlInfrastructureFactory(InfrastructureFactory[TrackingRecorder]):
    def __init__(self, env: Environment, *, store: EventStore, codec: SnapshotCodec | None = None) -> None:
        super().__init__(env)
        self.store = store
        self.codec = codec

    def transcoder(self) -> Transcoder:
        return MsgspecTranscoder()

    def mapper(self, transcoder: Transcoder | None = None, mapper_class: Any = None) -> Mapper[Any]:
        return JobEventsMapper(self.store.registry, self.store.max_payload_bytes)

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        if purpose == "snapshots":
            if self.codec is None:
                raise ConfigurationError("snapshots need an aggregate class with a snapshot codec")
            return SnapshotRecorder(self.store, self.codec.snapshot_type, self.codec.state_version)
        return JobEventsRecorder(self.store)

    def application_recorder(self) -> ApplicationRecorder:
        return JobEventsRecorder(self.store)

    def tracking_recorder(
        self, tracking_recorder_class: type[TrackingRecorder] | None = None
    ) -> TrackingRecorder:
        raise ConfigurationError("JobCtrl followers keep their own watermark; there is no tracking recorder")

    def process_recorder(self) -> ProcessRecorder:
        raise ConfigurationError("JobCtrl has no process recorder (see the projections runner)")

    def is_snapshotting_enabled(self) -> bool:
        return self.codec is not None
