"""Steps for apply/follow_up_snooze.feature: apply's record_outcome and snooze_follow_up write the
log, the projection runner folds it, and the due list is the API's own read (``due_follow_ups``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.apply.use_cases.record_outcome import record_outcome
from jobctrl.apply.use_cases.snooze_follow_up import snooze_follow_up
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.runtime.api.applications import due_follow_ups
from jobctrl.runtime.api.services import LocalContext
from jobctrl.testing.runtime.api_seed import discover_job, project

scenarios("apply/follow_up_snooze.feature")


@pytest.fixture
def ctx(database: Database) -> LocalContext:
    store = EventStore(database, registry())
    store.create_schema()
    migrate(database)
    create_orchestration_tables(database)
    return LocalContext(db=database, store=store, clock=FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC)))


@given(parsers.parse('the user applied to "{job}" at "{employer}" {days:d} days ago'))
def applied(ctx: LocalContext, job: str, employer: str, days: int) -> None:
    discover_job(ctx.store, job, employer=employer)
    at = isoformat(ctx.clock.now() - timedelta(days=days))
    record_outcome(ctx.store, job_id=job, outcome="applied", occurred_at=at, clock=ctx.clock)


@given(parsers.parse("follow-ups fall due {days:d} days after applying"))
def follow_up_days(ctx: LocalContext, days: int) -> None:
    SettingsStore(ctx.db, clock=ctx.clock).update({"follow_up_days": days})


@given(parsers.parse('the user recorded the outcome "{outcome}" for "{job}"'))
def outcome(ctx: LocalContext, outcome: str, job: str) -> None:
    record_outcome(ctx.store, job_id=job, outcome=outcome, clock=ctx.clock)


def _due(ctx: LocalContext) -> list[str]:
    project(ctx.db)
    return [v.job_id for v in due_follow_ups(ctx)[1]]


@then(parsers.parse('the follow-up of "{job}" is due'))
def is_due(ctx: LocalContext, job: str) -> None:
    assert _due(ctx) == [job]


@then(parsers.parse('the follow-up of "{job}" is not due'))
def not_due(ctx: LocalContext, job: str) -> None:
    assert job not in _due(ctx)


@when(parsers.parse('the user snoozes the follow-up of "{job}" for {days:d} days'))
def snooze(ctx: LocalContext, job: str, days: int) -> None:
    snooze_follow_up(ctx.store, job_id=job, until=ctx.clock.now() + timedelta(days=days), clock=ctx.clock)


@when(parsers.parse("{days:d} days pass"))
def days_pass(ctx: LocalContext, days: int) -> None:
    assert isinstance(ctx.clock, FixedClock)
    ctx.clock.advance(timedelta(days=days, seconds=1))


@then(
    parsers.parse(
        'snoozing the follow-up of "{job}" for {days:d} days is refused with "{code}" and writes nothing'
    )
)
def snooze_refused(ctx: LocalContext, job: str, days: int, code: str) -> None:
    head = ctx.store.head_position()
    error: Any = None
    try:
        snooze(ctx, job, days)
    except JobCtrlError as exc:
        error = exc
    assert error is not None and error.code == code, error
    assert ctx.store.head_position() == head
