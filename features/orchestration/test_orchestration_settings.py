"""Steps for features/orchestration/settings.feature, on both databases."""

from __future__ import annotations

import json

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.store import Database
from jobctrl.orchestration.adapters.settings_store import InvalidSettings, SettingsStore
from jobctrl.orchestration.adapters.tables import create_orchestration_tables

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("orchestration/settings.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@given("no settings were saved", target_fixture="settings")
def fresh(database: Database) -> SettingsStore:
    create_orchestration_tables(database)
    return SettingsStore(database)


@given(parsers.parse("the settings were changed to {change}"))
@when(parsers.parse("the settings are changed to {change}"))
def change(settings: SettingsStore, world: World, change: str) -> None:
    try:
        settings.update(json.loads(change))
    except InvalidSettings as exc:
        world.error = exc


@then(parsers.re(r"the settings are (?P<pairs>.+)$"))
def defaults(settings: SettingsStore, pairs: str) -> None:
    current = settings.load().model_dump()
    for pair in pairs.split(", "):
        key, value = pair.split(" ")
        assert current[key] == json.loads(value), key


@then(parsers.parse('the discovery schedule cron is "{cron}" and the task queue is "{queue}"'))
def cron_and_queue(settings: SettingsStore, cron: str, queue: str) -> None:
    loaded = settings.load()
    assert (loaded.discovery_schedule_cron, loaded.task_queue) == (cron, queue)


@then(parsers.parse('the saved settings have apply_concurrency {n:d} and cron "{cron}"'))
def saved(settings: SettingsStore, n: int, cron: str) -> None:
    loaded = settings.load()
    assert (loaded.apply_concurrency, loaded.discovery_schedule_cron) == (n, cron)


@then(parsers.parse('the change is refused as "{code}" mentioning "{field}"'))
def refused(world: World, code: str, field: str) -> None:
    error = world.error
    assert isinstance(error, InvalidSettings) and error.code == code
    assert any(problem.startswith(field) for problem in error.problems)


@then(parsers.parse("the saved settings still have apply_concurrency {n:d}"))
def unchanged(settings: SettingsStore, n: int) -> None:
    loaded = settings.load()
    assert loaded.apply_concurrency == n and loaded.auto_apply is False


@when(parsers.parse('the saved settings "{keys}" are unset'))
def unset(settings: SettingsStore, world: World, keys: str) -> None:
    try:
        settings.update({}, unset=keys.split(", "))
    except InvalidSettings as exc:
        world.error = exc


@then(parsers.parse("the saved document holds only {document}"))
def saved_document(settings: SettingsStore, document: str) -> None:
    assert settings.saved_document() == json.loads(document)


@then("no settings document was written")
def nothing_written(settings: SettingsStore) -> None:
    assert settings.saved_document() is None
