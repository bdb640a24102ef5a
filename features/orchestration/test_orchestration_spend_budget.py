"""Steps for features/orchestration/spend_budget.feature, on both databases."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import BudgetExceededError
from jobctrl.kernel.store import Database
from jobctrl.llm import LlmUsage
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.spend_ledger import SpendLedger, ledger_with_settings
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.orchestration.use_cases.check_spend_budget import check_spend_budget

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("orchestration/spend_budget.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@given("an empty spend ledger", target_fixture="ledger")
def empty_ledger(database: Database, clock: FixedClock) -> SpendLedger:
    create_orchestration_tables(database)
    return ledger_with_settings(database, clock=clock)


@given(parsers.parse("the daily budget is {amount:g} USD"))
def budget(database: Database, amount: float) -> None:
    SettingsStore(database).update({"daily_budget_usd": amount})


@given(parsers.parse("{amount:f} USD was spent today"))
def spent(ledger: SpendLedger, amount: float) -> None:
    ledger.add(amount)


@when(parsers.parse('a "{model}" call uses {tin:d} input and {tout:d} output tokens'))
def call(ledger: SpendLedger, model: str, tin: int, tout: int) -> None:
    ledger.record(LlmUsage(model=model, input_tokens=tin, output_tokens=tout))


@when("the day changes")
def next_day(clock: FixedClock) -> None:
    clock.advance(timedelta(days=1))


@when("the spend preflight runs")
def preflight(ledger: SpendLedger, world: World) -> None:
    try:
        world.spend = check_spend_budget(ledger)
    except BudgetExceededError as exc:
        world.error = exc


@then(parsers.parse("today's spend is {amount:f} USD over {calls:d} calls"))
def today(ledger: SpendLedger, amount: float, calls: int) -> None:
    status = ledger.status()
    assert status.spent_usd == pytest.approx(amount) and status.calls == calls


@then(parsers.parse("the preflight passes with {amount:f} USD remaining"))
def passes(world: World, amount: float) -> None:
    assert world.error is None and world.spend is not None
    assert world.spend.remaining_usd == pytest.approx(amount)


@then("the preflight passes as unlimited")
def unlimited(world: World) -> None:
    assert world.error is None and world.spend is not None
    assert world.spend.unlimited and world.spend.remaining_usd is None


@then(parsers.parse('the preflight fails with "{code}" and is not retryable'))
def fails(world: World, code: str) -> None:
    error = world.error
    assert isinstance(error, BudgetExceededError) and error.code == code and error.retryable is False
