"""What every route needs, built once by ``create_app``'s lifespan and read from ``app.state``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from fastapi import Request

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.hub import EventHub
from jobctrl.runtime.api.workflow_control import WorkflowControl


class StoreContext(Protocol):
    """What the read helpers need (the API's ``Services``, or a CLI's own context)."""

    @property
    def db(self) -> Database: ...
    @property
    def store(self) -> EventStore: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def tenant_id(self) -> str: ...


@dataclass(frozen=True)
class LocalContext:
    """A ``StoreContext`` for the CLI: the same reads, straight over the database."""

    db: Database
    store: EventStore
    clock: Clock
    tenant_id: str = LOCAL_TENANT


@dataclass
class Services:
    db: Database
    store: EventStore
    hub: EventHub
    clock: Clock
    control: WorkflowControl | None = None
    tenant_id: str = LOCAL_TENANT
    artifacts_root: Path | None = None  # where rendered PDFs are read from (the review page)
    task_queue: str | None = None  # apply workflows started by a review (None: the saved setting)

    def require_control(self) -> WorkflowControl:
        if self.control is None:
            raise ApiError(503, "temporal_unavailable", "no Temporal server is configured for this API")
        return self.control


def services(request: Request) -> Services:
    result: Services = request.app.state.services
    return result
