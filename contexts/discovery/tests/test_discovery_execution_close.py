"""The membership close's v2 reason (ADR 0083): a v1 close (the terminal fan-out's, before reasons)
reads as a close without a reason, and an interrupted close's reason is always a bounded code."""

from __future__ import annotations

from jobctrl.discovery.domain.execution import DiscoveryExecution, interrupted_reason
from jobctrl.discovery.events import DiscoveryExecutionMembershipClosed
from jobctrl.domain_types import registry
from jobctrl.kernel.execution import ExecutionRef

V1 = (
    b'{"execution":{"tenantId":"local","workflowId":"discover-local","temporalRunId":"r-1"},'
    b'"memberCount":3,"closedAt":"2026-03-01T09:00:00Z"}'
)


def test_a_v1_close_reads_as_the_fan_outs_close_without_a_reason() -> None:
    event = registry().decode_payload("DiscoveryExecutionMembershipClosed", V1, 1)
    assert isinstance(event, DiscoveryExecutionMembershipClosed)
    assert (event.member_count, event.reason_code) == (3, None)


def test_an_interrupted_close_reason_is_a_bounded_code() -> None:
    assert interrupted_reason("reconciled_closed_timed_out") == "interrupted_reconciled_closed_timed_out"
    assert interrupted_reason("Not <a> code") == "interrupted"
    execution = DiscoveryExecution.for_ref(ExecutionRef("acme", "discover-acme", "r-1"))
    assert execution.close_membership(at="t", reason_code=interrupted_reason("canceled"))
    assert not execution.close_membership(at="t", reason_code="interrupted_again")
    [closed] = execution.pending_events
    assert isinstance(closed, DiscoveryExecutionMembershipClosed)
    assert (closed.reason_code, closed.member_count) == ("interrupted_canceled", 0)
