"""The source registry entry (stream ``source-<sourceId>``): kind, crawl policy and state.

States: active, experimental, quarantined, disabled.  Every state change is a ``SourceStateChanged``
event carrying a bounded reason code.  A disabled source only comes back through an explicit
operator re-activation (reason ``operator``), never through an automatic recommendation.
"""

from __future__ import annotations

from jobctrl.discovery.domain.errors import InvalidSourceTransition
from jobctrl.discovery.events import (
    SourceKind,
    SourceRegistryEntryCreated,
    SourceState,
    SourceStateChanged,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.text import bounded_code


class SourceEntry(Aggregate):
    stream_prefix = "source"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.registered = False
        self.kind: SourceKind | None = None
        self.policy_id = ""
        self.state: SourceState = "experimental"

    def register(self, *, kind: SourceKind, policy_id: str, state: SourceState, at: str) -> None:
        if self.registered:
            return
        self._record(
            SourceRegistryEntryCreated(
                source_id=self.id, kind=kind, policy_id=policy_id, state=state, created_at=at
            )
        )

    def change_state(self, *, to: SourceState, reason: str, at: str, operator: bool = False) -> bool:
        if not self.registered:
            raise InvalidSourceTransition(f"source {self.id} is not registered")
        if to == self.state:
            return False
        if self.state == "disabled" and not operator:
            raise InvalidSourceTransition("a disabled source is re-enabled only by an operator")
        self._record(
            SourceStateChanged(
                source_id=self.id,
                from_state=self.state,
                to_state=to,
                reason=bounded_code(reason),
                changed_at=at,
            )
        )
        return True

    @property
    def runnable(self) -> bool:
        return self.state in ("active", "experimental")

    @applies(SourceRegistryEntryCreated)
    def _created(self, event: SourceRegistryEntryCreated) -> None:
        self.registered = True
        self.kind = event.kind
        self.policy_id = event.policy_id
        self.state = event.state

    @applies(SourceStateChanged)
    def _changed(self, event: SourceStateChanged) -> None:
        self.state = event.to_state
