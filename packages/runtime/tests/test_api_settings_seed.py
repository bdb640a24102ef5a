"""Settings are seeded per key (ADR 0192): a key never saved through ``PATCH /v1/settings`` keeps
coming from the configuration (``config.toml``, then the environment), in the API and in the worker;
saving one key does not freeze the others at their defaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from jobctrl.kernel.store import Database
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.runtime.settings import EnvSettings, SavedSettings

from .conftest import configured_api


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    config = "[apply]\nmin_fit_score = 5\n[worker]\nactivity_slots = 6\n"
    yield from configured_api(db_url, tmp_path, monkeypatch, config, {"JOBCTRL_DAILY_BUDGET_USD": "40"})


@pytest.mark.both_databases
def test_keys_not_saved_keep_coming_from_the_configuration(
    client: TestClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded = client.get("/v1/settings").json()
    assert (seeded["minFitScore"], seeded["workerActivitySlots"], seeded["dailyBudgetUsd"]) == (5, 6, 40)
    assert seeded["autoApply"] is False

    saved = client.patch("/v1/settings", json={"autoApply": True})
    assert saved.status_code == 200, saved.text
    after = client.get("/v1/settings").json()
    assert after["autoApply"] is True
    assert (after["minFitScore"], after["workerActivitySlots"], after["dailyBudgetUsd"]) == (5, 6, 40)
    assert saved.json() == after
    assert SettingsStore(database).saved_document() == {"auto_apply": True}  # only what was saved

    # Still seeded, not frozen: a new seed shows in the API and in what the worker obeys.
    monkeypatch.setenv("JOBCTRL_DAILY_BUDGET_USD", "50")
    assert client.get("/v1/settings").json()["dailyBudgetUsd"] == 50
    worker = SavedSettings(database, EnvSettings()).load()
    assert (worker.auto_apply, worker.daily_budget_usd, worker.worker_activity_slots) == (True, 50, 6)

    # A saved key wins over its seed from then on.
    assert client.patch("/v1/settings", json={"dailyBudgetUsd": 10}).status_code == 200
    assert client.get("/v1/settings").json()["dailyBudgetUsd"] == 10
    assert SavedSettings(database, EnvSettings()).load().daily_budget_usd == 10
    assert SettingsStore(database).saved_document() == {"auto_apply": True, "daily_budget_usd": 10.0}


@pytest.mark.both_databases
def test_a_refused_change_saves_nothing_and_leaves_the_seeds(client: TestClient, database: Database) -> None:
    assert client.patch("/v1/settings", json={"autoApply": True}).status_code == 200
    refused = client.patch("/v1/settings", json={"workerActivitySlots": 0})
    assert refused.status_code == 422
    assert SettingsStore(database).saved_document() == {"auto_apply": True}
    assert client.get("/v1/settings").json()["workerActivitySlots"] == 6


@pytest.mark.both_databases
def test_null_unsets_a_saved_key_back_to_its_configured_value(client: TestClient, database: Database) -> None:
    """ADR 0272: ``null`` removes the key from the saved document; it reads from the seed again."""
    saved = {"autoApply": True, "minFitScore": 9, "workerActivitySlots": 12}
    assert client.patch("/v1/settings", json=saved).status_code == 200
    assert SavedSettings(database, EnvSettings()).load().worker_activity_slots == 12
    unset = client.patch(
        "/v1/settings", json={"minFitScore": None, "autoApply": None, "workerActivitySlots": None}
    )
    assert unset.status_code == 200, unset.text
    body = unset.json()
    assert (body["minFitScore"], body["workerActivitySlots"], body["autoApply"]) == (5, 6, False)  # config
    assert SettingsStore(database).saved_document() == {}
    worker = SavedSettings(database, EnvSettings()).load()  # what the worker obeys, re-read on its beat
    assert (worker.worker_activity_slots, worker.auto_apply) == (6, False)


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "body",
    [
        {"noSuchSetting": None},  # an unknown key is refused, set or unset
        {"autoApply": None, "noSuchSetting": None},
        {"autoApply": None, "workerActivitySlots": 0},  # one invalid value: the unset is not saved
    ],
)
def test_a_refused_unset_saves_nothing(client: TestClient, database: Database, body: dict[str, None]) -> None:
    assert client.patch("/v1/settings", json={"autoApply": True}).status_code == 200
    refused = client.patch("/v1/settings", json=body)
    assert refused.status_code == 422 and set(refused.json()) == {"error"}, refused.text
    assert SettingsStore(database).saved_document() == {"auto_apply": True}


@pytest.mark.both_databases
def test_unsetting_what_was_never_saved_writes_nothing(client: TestClient, database: Database) -> None:
    response = client.patch("/v1/settings", json={"dailyBudgetUsd": None})
    assert response.status_code == 200 and response.json()["dailyBudgetUsd"] == 40  # the environment's
    assert SettingsStore(database).saved_document() is None
