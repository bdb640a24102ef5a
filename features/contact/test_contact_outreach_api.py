"""Step definitions for features/contact/outreach_api.feature: the outreach routes and
``jobctrl outreach`` over one log (the read models by the real projection runner)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when
from typer.testing import CliRunner

from jobctrl.contact import ContactServices
from jobctrl.kernel.store import Database
from jobctrl.orchestration import SettingsStore, create_orchestration_tables, ledger_with_settings
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.runtime.api_seed import project

from .conftest import World

pytestmark = [pytest.mark.both_databases, pytest.mark.usefixtures("same_keys")]
scenarios("contact/outreach_api.feature")


def _cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["outreach", *args])


def _unchanged(svc: ContactServices, call: Any) -> Any:
    head = svc.store.head_position()
    result = call()
    assert svc.store.head_position() == head, "a refused step wrote to the log"
    return result


@when(parsers.parse('the user drafts to "{name}" through the API about the "{role}" role at "{employer}"'))
def draft_api(client: TestClient, world: World, name: str, role: str, employer: str) -> None:
    world.role, world.employer = role, employer
    body = {"contactId": world.candidates[name], "role": role, "employer": employer}
    response = client.post("/v1/outreach/threads", json=body)
    assert response.status_code == 201, response.text
    world.detail = response.json()
    world.thread, world.draft = world.detail["threadId"], world.detail["draftId"]


@then(parsers.parse("the API answers the thread with the draft in review as generation {gen:d}"))
def answered(client: TestClient, world: World, gen: int) -> None:
    detail = client.get(f"/v1/outreach/threads/{world.thread}").json()
    assert detail == world.detail
    assert (detail["draftStatus"], detail["generation"], detail["sends"]) == ("needs_review", gen, 0)
    assert detail["body"].startswith("Hi Jane,") and world.role in detail["body"]


@then(
    parsers.parse(
        'a draft through the API with the point "{point}" answers 422 naming "{word}", and writes nothing'
    )
)
def refused_api(client: TestClient, svc: ContactServices, world: World, point: str, word: str) -> None:
    body = {"contactId": world.contact_id, "role": world.role, "employer": world.employer, "points": [point]}
    response = _unchanged(svc, lambda: client.post("/v1/outreach/threads", json=body))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "outreach_unsupported_claims"
    assert any(word in f["reason"] for f in error["fields"]), error


@when("the user edits the draft through the command line")
def edit_cli(tmp_path: Path, world: World) -> None:
    text = tmp_path / "edit.txt"
    text.write_text(
        "Hi Jane,\n\nI build Kafka pipelines at Globex. I would like to hear about the Staff Platform"
        " Engineer role at Hooli.\nCould we talk?\n\nAda Lovelace\n"
    )
    result = _cli("revise", world.thread, "--subject", "A question", "--body-file", str(text))
    assert result.exit_code == 0, result.output
    assert "generation 2: needs_review" in result.output and "Kafka pipelines" in result.output


@then("approving generation 1 through the API answers 409, and writes nothing")
def stale_api(client: TestClient, svc: ContactServices, world: World) -> None:
    url = f"/v1/outreach/threads/{world.thread}/approve"
    response = _unchanged(svc, lambda: client.post(url, json={"draftId": world.draft, "generation": 1}))
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "outreach_draft_version_mismatch"


@when(parsers.parse("the user approves generation {gen:d} through the command line"))
def approve_cli(world: World, gen: int) -> None:
    result = _cli("approve", world.thread, "--draft", world.draft, "--generation", str(gen))
    assert result.exit_code == 0, result.output
    assert "approved" in result.output


@when(parsers.parse('the user says through the API they sent it by "{channel}"'))
def sent_api(client: TestClient, world: World, channel: str) -> None:
    response = client.post(f"/v1/outreach/threads/{world.thread}/sent", json={"channel": channel})
    assert response.status_code == 200, response.text
    assert (response.json()["draftStatus"], response.json()["sends"]) == ("sent", 1)


@when(parsers.parse('the user records a reply through the command line noting "{note}"'))
def reply_cli(world: World, note: str) -> None:
    result = _cli("reply", world.thread, "--channel", "email", "--note", note)
    assert result.exit_code == 0, result.output
    world.note = note


@when("the user sets a follow-up through the API for tomorrow")
def follow_up_api(client: TestClient, svc: ContactServices, world: World) -> None:
    due = "2026-04-02T09:00:00Z"
    assert svc.clock.now().isoformat().startswith("2026-04-01")
    response = client.post(f"/v1/outreach/threads/{world.thread}/follow-up", json={"dueAt": due})
    assert response.status_code == 200, response.text
    assert (response.json()["followUpStatus"], response.json()["followUpDueAt"]) == (
        "scheduled",
        "2026-04-02T09:00:00.000Z",
    )


@then("the command line shows the thread sent, with the reply note and a scheduled follow-up")
def show_cli(world: World) -> None:
    result = _cli("show", world.thread)
    assert result.exit_code == 0, result.output
    assert "generation 2: sent" in result.output and "sends 1" in result.output
    assert world.note in result.output and "follow-up scheduled 2026-04-02" in result.output


@when("the user marks the follow-up done through the command line")
def done_cli(world: World) -> None:
    result = _cli("follow-up-done", world.thread)
    assert result.exit_code == 0, result.output


@then("the thread list through the API shows 1 send, 1 reply and the follow-up completed")
def listed(client: TestClient, database: Database, world: World) -> None:
    project(database)
    [row] = client.get("/v1/outreach/threads", params={"contactId": world.contact_id}).json()["items"]
    assert (row["sends"], row["replies"], row["followUpStatus"], row["draftStatus"]) == (
        1, 1, "completed", "sent",
    )  # fmt: skip


@then(parsers.parse('drafting through the API to contact "{cid}" answers 404, and writes nothing'))
def draft_unknown(client: TestClient, svc: ContactServices, cid: str) -> None:
    response = _unchanged(svc, lambda: client.post("/v1/outreach/threads", json={"contactId": cid}))
    assert response.status_code == 404, response.text
    assert response.json()["error"]["code"] == "contact_not_found"


@then(parsers.parse('showing thread "{tid}" through the API answers 404, and writes nothing'))
def show_unknown(client: TestClient, svc: ContactServices, tid: str) -> None:
    response = _unchanged(svc, lambda: client.get(f"/v1/outreach/threads/{tid}"))
    assert response.status_code == 404, response.text
    assert response.json()["error"]["code"] == "outreach_thread_not_found"


@then(parsers.parse('saying thread "{tid}" was sent through the command line exits 1, and writes nothing'))
def sent_unknown_cli(svc: ContactServices, tid: str) -> None:
    result = _unchanged(svc, lambda: _cli("sent", tid, "--channel", "email"))
    assert result.exit_code == 1, result.output
    assert "outreach_thread_not_found" in result.output


@then("a draft through the API with an unknown field answers 422, and writes nothing")
def unknown_field(client: TestClient, svc: ContactServices, world: World) -> None:
    body = {"contactId": world.contact_id, "sendNow": True}
    response = _unchanged(svc, lambda: client.post("/v1/outreach/threads", json=body))
    assert response.status_code == 422, response.text


@given("today's model spend has reached the daily budget")
def budget_spent(database: Database, svc: ContactServices) -> None:
    create_orchestration_tables(database)
    SettingsStore(database, clock=svc.clock).update({"daily_budget_usd": 0.5})
    ledger = ledger_with_settings(database, clock=svc.clock)
    ledger.add(0.5)
    assert ledger.status().exceeded


@then(
    parsers.parse(
        'drafting through the API to "{name}" answers 409 "{code}", asks no model, and writes nothing'
    )
)
def draft_over_budget(
    client: TestClient, database: Database, svc: ContactServices, world: World, name: str, code: str
) -> None:
    ledger = ledger_with_settings(database, clock=svc.clock)
    calls = ledger.status().calls
    body = {"contactId": world.candidates[name], "employer": "Hooli"}
    response = _unchanged(svc, lambda: client.post("/v1/outreach/threads", json=body))
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == code
    assert ledger.status().calls == calls
