"""What every route needs, built once by ``create_app``'s lifespan and read from ``app.state``."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.hub import EventHub
from jobctrl.runtime.api.workflow_control import WorkflowControl


@dataclass
class Services:
    db: Database
    store: EventStore
    hub: EventHub
    clock: Clock
    control: WorkflowControl | None = None
    tenant_id: str = LOCAL_TENANT

    def require_control(self) -> WorkflowControl:
        if self.control is None:
            raise ApiError(503, "temporal_unavailable", "no Temporal server is configured for this API")
        return self.control


def services(request: Request) -> Services:
    result: Services = request.app.state.services
    return result
