"""Pure pieces of the runtime: ids, error mapping, the spend rule, safe telemetry ids."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from temporalio.exceptions import ActivityError, ApplicationError, RetryState

from jobctrl.activity_contracts.contracts import SpendCheckInput, SpendCheckResult
from jobctrl.contact.adapters.vault import PersonalDataVault
from jobctrl.domain_types import registry
from jobctrl.kernel.errors import (
    BudgetExceededError,
    ConfigurationError,
    MissingInputError,
    SourceUnavailableError,
)
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.llm import LlmUsage
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.spend_ledger import ledger_with_settings
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.errors import failure_of, to_application_error
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.runtime.activities.deps import ActivityDeps
from jobctrl.runtime.activities.spend import SpendActivities
from jobctrl.runtime.settings import pdf_render_lanes
from jobctrl.runtime.telemetry import heartbeat
from jobctrl.runtime.telemetry.interceptor import (
    DETAIL_LIMIT,
    RuntimeTelemetry,
    safe_run_id,
    safe_workflow_id,
)


def test_preparation_key_is_stable_and_sensitive_to_every_part() -> None:
    base = preparation_idempotency_key("local", "job-1", "score_job", 3, "evt-1")
    assert base == preparation_idempotency_key("local", "job-1", "score_job", 3, "evt-1")
    assert re.fullmatch(r"preparation:[0-9a-f]{64}", base)
    assert (
        base == "preparation:28414e97775f86fdb7eb4fc6ea3a3c47526f275055c764becd5b3b595a2e086a"
    )  # fixed in every process
    variants = [
        ("other", "job-1", "score_job", 3, "evt-1"),
        ("local", "job-2", "score_job", 3, "evt-1"),
        ("local", "job-1", "tailor_resume", 3, "evt-1"),
        ("local", "job-1", "score_job", 4, "evt-1"),
        ("local", "job-1", "score_job", None, "evt-1"),
        ("local", "job-1", "score_job", 3, "evt-2"),
    ]
    assert len({preparation_idempotency_key(*v) for v in variants} | {base}) == 7
    assert preparation_workflow_id(base) == f"prep-{base}"
    # length-prefixed parts: shifting a character between parts changes the key
    assert preparation_idempotency_key("a", "bc", "k", 1, "e") != preparation_idempotency_key(
        "ab", "c", "k", 1, "e"
    )


def test_kernel_errors_map_to_application_errors_with_the_class_flag() -> None:
    budget = to_application_error(BudgetExceededError("over"))
    assert (budget.type, budget.non_retryable) == ("budget_exceeded", True)
    missing = to_application_error(MissingInputError("no profile"))
    assert (missing.type, missing.non_retryable) == ("missing_input", True)
    source = to_application_error(SourceUnavailableError("503"))
    assert (source.type, source.non_retryable) == ("source_unavailable", False)
    bug = to_application_error(ValueError("boom"))
    assert (bug.type, bug.non_retryable) == ("unclassified", False)


def test_non_retryable_codes_are_in_every_named_policy() -> None:
    for policy in (policies.SRC, policies.ENR, policies.SCORE, policies.TAIL, policies.COVER):
        assert set(policy.non_retryable_error_types or []) >= {
            "configuration", "authentication", "missing_input", "budget_exceeded",
        }  # fmt: skip
    # The preflight never retries a refusal (a depleted budget fails at once) but retries an attempt
    # lost to a crash: a single attempt made a killed worker fail the job (ADR 0250).
    assert "budget_exceeded" in (policies.PREFLIGHT.non_retryable_error_types or [])
    assert 1 < policies.PREFLIGHT.maximum_attempts <= 3


def test_failure_of_reads_the_code_through_an_activity_error() -> None:
    cause = ApplicationError("lever down", type="source_unavailable", non_retryable=False)
    wrapped = ActivityError(
        "activity failed", scheduled_event_id=1, started_event_id=2, identity="w", activity_type="x",
        activity_id="1", retry_state=RetryState.MAXIMUM_ATTEMPTS_REACHED,
    )  # fmt: skip
    wrapped.__cause__ = cause
    assert failure_of(wrapped).code == "source_unavailable"
    assert failure_of(wrapped).retryable is True
    assert failure_of(ValueError("x")).code == "unclassified"


def test_the_preflight_activity_reads_the_real_ledger_of_the_runs_tenant(tmp_path: Path) -> None:
    """The worker's ``check_spend_budget`` over ``Composition``'s ledger: a ledger that always reported
    $0 (or ignored the tenant, or the ceiling) fails here, in milliseconds (ADR 0110)."""
    db = open_database(f"sqlite:///{tmp_path / 'spend.db'}")
    try:
        create_orchestration_tables(db)
        SettingsStore(db).update({"daily_budget_usd": 25.0})
        ledger = ledger_with_settings(db)
        preflight = SpendActivities(ActivityDeps(store=EventStore(db, registry()), spend=ledger))
        ask = SpendCheckInput(tenant_id="acme", workflow_id="prep-x", workflow_type="JobPreparationWorkflow")
        assert preflight.check_spend_budget(ask) == SpendCheckResult(0.0, 25.0)
        ledger.record(LlmUsage("gpt-4o", 1_000_000, 2_000_000, tenant_id="acme"))  # 2.50 + 20.00 USD
        spent = preflight.check_spend_budget(ask)
        assert spent.spent_usd == pytest.approx(22.5) and spent.budget_usd == 25.0
        ledger.add(2.5, tenant_id="acme")  # exactly at the ceiling
        with pytest.raises(ApplicationError) as refused:
            preflight.check_spend_budget(ask)
        assert refused.value.type == "budget_exceeded" and refused.value.non_retryable
        other = SpendCheckInput(tenant_id="local", workflow_id="d", workflow_type="DiscoverWorkflow")
        assert preflight.check_spend_budget(other).spent_usd == 0.0  # another tenant's row
        SettingsStore(db).update({"daily_budget_usd": 0.0})  # 0 means unlimited, read live
        assert preflight.check_spend_budget(ask).budget_usd == 0.0
    finally:
        db.dispose()


def test_unsafe_ids_become_opaque_and_safe_ones_survive() -> None:
    assert safe_workflow_id("discover-local") == "discover-local"
    prep = "prep-preparation:" + "a" * 64
    assert safe_workflow_id(prep) == prep
    assert safe_workflow_id("prep-https://x.example/a").startswith("opaque-")
    run = "01a22aff-28e4-77db-b012-40c6878d3f15"
    assert safe_run_id(run) == run
    assert safe_run_id("not a uuid").startswith("opaque-")


def test_details_are_capped_oldest_first_with_an_exact_total() -> None:
    telemetry = RuntimeTelemetry()
    seqs = [telemetry.begin("score_job", "discover-local", "r", 1) for _ in range(DETAIL_LIMIT + 5)]
    telemetry.begin("apply", "apply-auto-local", "r", 1)
    snap = telemetry.snapshot()
    assert snap.active_count == DETAIL_LIMIT + 6
    assert snap.details_total == DETAIL_LIMIT + 5 and snap.truncated
    assert len(snap.details) == DETAIL_LIMIT
    assert snap.per_kind == {"other": 1, "score_job": DETAIL_LIMIT + 5}
    telemetry.end(seqs[0], succeeded=True)
    assert telemetry.snapshot().durations["score_job"]["count"] == 1


@pytest.mark.parametrize("raw", ["0", "17", "two", "1.5"])  # empty: unset, as every variable
def test_a_bad_pdf_renderer_count_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("JOBCTRL_PDF_RENDERERS", raw)
    with pytest.raises(ConfigurationError, match="JOBCTRL_PDF_RENDERERS"):
        pdf_render_lanes()


def test_pdf_renderers_default_to_two_and_follow_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOBCTRL_PDF_RENDERERS", raising=False)
    assert pdf_render_lanes() == min(2, os.cpu_count() or 1)
    monkeypatch.setenv("JOBCTRL_PDF_RENDERERS", "3")
    assert pdf_render_lanes() == 3


def _vault_schema(db: Database) -> None:
    PersonalDataVault(db).create_schema()


@pytest.mark.parametrize(
    ("create", "table"),
    [
        (heartbeat.create_table, "worker_runtime_heartbeats"),
        (create_orchestration_tables, "jobctrl_settings"),
        (_vault_schema, "contact_subject_keys"),
    ],
    ids=["heartbeats", "orchestration", "contact-vault"],
)
def test_tables_are_created_while_another_writer_commits(
    tmp_path: Path, create: Callable[[Database], None], table: str
) -> None:
    """``jobctrl worker --projections`` on SQLite: the runner folds (commits) while the worker starts.
    A deferred transaction that read the schema cannot upgrade once that writer committed ("database
    is locked" at once, whatever the busy timeout); every start-up table is created in a write
    transaction."""
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    store = EventStore(db, registry())
    store.create_schema()
    holding, creating, failure = threading.Event(), threading.Event(), []

    def other_writer() -> None:
        try:
            with db.write() as conn:
                conn.execute(sa.text("CREATE TABLE other_writer (n INTEGER)"))
                holding.set()
                # Commit only after the creator has started, so it is waiting for this lock (its new
                # connection's first statement already blocks on it).
                assert creating.wait(10), "the creator never started"
                time.sleep(0.2)  # a hold, not a wait for a result
        except BaseException as exc:  # surfaced below
            failure.append(exc)

    thread = threading.Thread(target=other_writer)
    thread.start()
    assert holding.wait(10)
    creating.set()
    create(db)
    thread.join()
    assert failure == []
    with db.read() as conn:
        assert sa.inspect(conn).has_table(table)
    db.dispose()
