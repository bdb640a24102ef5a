"""One Discover execution's identity: the one ``ExecutionRef`` every package uses (ADR 0265).

The workflow reads it once at the start of a run (tenant, Discover workflow id, Temporal run id; the
run id is part of it because the deterministic workflow id can be started again) and passes it to
activities, which hand it to the use cases.  ``ExecutionRef`` is a frozen dataclass because Temporal's
default converter encodes dataclasses (snake_case keys, as the in-flight histories hold them);
``ExecutionRefPayload`` is its form inside a stored event (camelCase keys, as the logs hold them).
The two carry the same three fields and convert with :meth:`ExecutionRef.payload` and
:meth:`ExecutionRefPayload.ref`.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec


@dataclass(frozen=True)
class ExecutionRef:
    """The immutable identity of one Discover execution."""

    tenant_id: str
    workflow_id: str
    temporal_run_id: str

    def payload(self) -> ExecutionRefPayload:
        """The reference as an event payload stores it."""
        return ExecutionRefPayload(self.tenant_id, self.workflow_id, self.temporal_run_id)


class ExecutionRefPayload(msgspec.Struct, frozen=True, rename="camel"):
    """The immutable identity of one Discover execution, as stored in an event (camelCase)."""

    tenant_id: str
    workflow_id: str
    temporal_run_id: str

    def ref(self) -> ExecutionRef:
        """The reference the use cases and activities take."""
        return ExecutionRef(self.tenant_id, self.workflow_id, self.temporal_run_id)
