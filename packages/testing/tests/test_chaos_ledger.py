"""The chaos row's accounting (ADR 0296): a missing fact is lost, an extra one duplicated, per subject."""

from __future__ import annotations

import itertools

from jobctrl.kernel.events import StoredEvent
from jobctrl.testing.runtime.chaos import Ledger

_ids = itertools.count(1)


def _event(stream: str, event_type: str, tenant: str = "t1", event_id: str | None = None) -> StoredEvent:
    n = next(_ids)
    return StoredEvent(
        position=n, stream_id=stream, stream_version=n, event_id=event_id or f"e{n}", event_type=event_type,
        schema_version=1, tenant_id=tenant, occurred_at="2026-12-01T00:00:00.000Z", payload=b"{}",
        metadata=b"{}",
    )  # fmt: skip


def _job(job_id: str, tenant: str = "t1") -> list[StoredEvent]:
    return [
        _event(f"job-{job_id}", "JobDiscovered", tenant),
        _event(f"enrich-{job_id}", "JobEnriched", tenant),
        _event(f"stages-{job_id}", "StageStarted", tenant),
        _event(f"score-{job_id}", "JobScored", tenant),
        _event(f"stages-{job_id}", "StageCompleted", tenant),
    ]


def test_a_job_like_the_control_is_neither_lost_nor_duplicated_and_a_retried_attempt_is_allowed() -> None:
    ledger = Ledger([*_job("a"), *_job("b", tenant="t2"), _event("stages-b", "StageStarted", "t2")])
    ledger.compare(ledger.job("a"), ledger.job("b"))
    assert (ledger.lost, ledger.duplicated) == (0, 0)
    assert ledger.job("a")["JobScored"] == 1 and "StageStarted" not in ledger.job("a")


def test_an_attempt_settled_by_its_own_retry_is_not_a_duplicate() -> None:
    # A killed Score attempt is settled by the retry of the same workflow run (ADR 0307): the stage
    # is failed OWNER_RECONCILED_UNCOMMITTED, reset and started again, then completes once.
    retry = [_event("stages-b", t) for t in ("StageStarted", "StageFailed", "StageReset")]
    ledger = Ledger([*_job("a"), *retry, *_job("b")])
    ledger.compare(ledger.job("a"), ledger.job("b"))
    assert (ledger.lost, ledger.duplicated) == (0, 0)
    assert ledger.job("b")["StageCompleted"] == 1


def test_a_missing_score_is_lost_and_a_second_one_duplicated_whoever_recorded_it() -> None:
    missing = [e for e in _job("b") if e.event_type != "JobScored"]
    ledger = Ledger([*_job("a"), *missing, *_job("c"), _event("score-c", "JobScored", tenant="t9")])
    control = ledger.job("a")
    ledger.compare(control, ledger.job("b"))
    ledger.compare(control, ledger.job("c"))
    assert (ledger.lost, ledger.duplicated) == (1, 1)


def test_a_workflow_without_its_end_is_lost_one_ended_twice_duplicated_and_an_id_twice_too() -> None:
    ledger = Ledger([
        _event("workflow-w1", "WorkflowStarted"), _event("workflow-w1", "WorkflowCompleted"),
        _event("workflow-w2", "WorkflowStarted"),
        _event("workflow-w3", "WorkflowStarted"), _event("workflow-w3", "WorkflowCompleted"),
        _event("workflow-w3", "WorkflowFailed"),
        _event("job-x", "JobDiscovered", event_id="same"), _event("job-y", "JobDiscovered", event_id="same"),
    ])  # fmt: skip
    assert ledger.workflows() == 3
    ledger.ids()
    assert (ledger.lost, ledger.duplicated) == (1, 2)


def test_a_run_is_judged_by_its_own_facts() -> None:
    run = ["DiscoveryRunStarted", "SourceCrawlRecorded", "DiscoveryExecutionMembershipClosed"]
    ledger = Ledger([
        *(_event("r", t, "c0") for t in [*run, "DiscoveryRunCompleted", "PipelineStepStarted"]),
        *(_event("r", t, "c1") for t in run),
    ])  # fmt: skip
    ledger.compare(ledger.run("c0"), ledger.run("c1"))
    assert (ledger.lost, ledger.duplicated) == (1, 0)
