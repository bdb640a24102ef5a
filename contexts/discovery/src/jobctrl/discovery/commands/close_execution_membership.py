"""Close an execution's membership (the terminal preparation fan-out); later links are refused."""

from __future__ import annotations

from jobctrl.discovery.commands.link_execution_members import load_execution, save_execution
from jobctrl.discovery.domain.execution import DiscoveryExecutionRef
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.store import EventStore


def close_execution_membership(store: EventStore, ref: DiscoveryExecutionRef, *, clock: Clock) -> bool:
    execution = load_execution(store, ref, clock)
    changed = execution.close_membership(at=isoformat(clock.now()))
    save_execution(store, execution, clock)
    return changed
