"""The browser-submit allowlist (ADR 0280) is a setting: seeded by ``[apply] browser_submit_allowlist``
in ``config.toml``, changed live by ``PATCH /v1/settings``, and what the apply activity's claim policy
obeys.  An entry that is not a bare host name is refused and nothing is saved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from jobctrl.kernel.store import Database
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.runtime.composition.root import claim_policy
from jobctrl.runtime.settings import config_seed

from .conftest import configured_api


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    config = '[apply]\nbrowser_submit_allowlist = ["jobs.acme.example"]\n'
    yield from configured_api(db_url, tmp_path, monkeypatch, config)


@pytest.mark.both_databases
def test_the_allowlist_is_seeded_changed_live_and_obeyed(client: TestClient, database: Database) -> None:
    assert client.get("/v1/settings").json()["browserSubmitAllowlist"] == ["jobs.acme.example"]
    seeded = SettingsStore(database, seed=config_seed()).load()
    policy = claim_policy(7.0, seeded)
    assert policy.submits_browser_form("https://JOBS.acme.example/apply/1")
    assert not policy.submits_browser_form("https://careers.other.example/apply/1")
    assert not policy.submits_browser_form("mailto:jobs@jobs.acme.example")

    saved = client.patch("/v1/settings", json={"browserSubmitAllowlist": ["boards.example.org"]})
    assert saved.status_code == 200, saved.text
    live = claim_policy(7.0, SettingsStore(database, seed=config_seed()).load())
    assert live.browser_submit_hosts == frozenset({"boards.example.org"})


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "entry", ["https://jobs.acme.example/", "jobs.acme.example:8443", "Jobs.Acme.Example", ""]
)
def test_an_entry_that_is_not_a_host_name_is_refused(
    client: TestClient, database: Database, entry: str
) -> None:
    refused = client.patch("/v1/settings", json={"browserSubmitAllowlist": [entry]})
    assert refused.status_code == 422, refused.text
    assert "browser_submit_allowlist" in refused.text
    assert SettingsStore(database).saved_document() is None
    assert client.get("/v1/settings").json()["browserSubmitAllowlist"] == ["jobs.acme.example"]
