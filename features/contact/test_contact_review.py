"""Step definitions for features/contact/review.feature: the review routes and ``jobctrl contacts``
over the log the research use case wrote (the read models by the real projection runner)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when
from typer.testing import CliRunner

from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.use_cases.run_research import run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.store import Database
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.runtime.api_seed import project

from .conftest import CareersSite, World

pytestmark = [pytest.mark.both_databases, pytest.mark.usefixtures("same_keys")]
scenarios("contact/review.feature")


def _cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["contacts", *args])


def _by_name(svc: ContactServices, world: World, name: str) -> str:
    task = svc.tasks.get(world.task_id)
    return next(
        cid
        for cid, c in task.candidates.items()
        if (svc.vault.open(cid, c.sealed_candidate) or {}).get("name") == name
    )


@given("the research read the team page the user supplied")
def research_read(svc: ContactServices, site: CareersSite, world: World, database: Database) -> None:
    urls = [f"{site.base}/team"]
    policy = SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True)
    asyncio.run(run_research(svc, world.task_id, urls, policy))
    world.candidates = {name: _by_name(svc, world, name) for name in ("Jane Doe", "Bob Smith")}
    project(database)


@when("the user lists contact research through the API")
def list_api(client: TestClient, world: World) -> None:
    response = client.get("/v1/contacts/research")
    assert response.status_code == 200, response.text
    world.listed = response.json()


@then(parsers.parse('task "{task_id}" is listed as needing review with {count:d} candidates'))
def listed(world: World, task_id: str, count: int) -> None:
    [item] = world.listed["items"]
    assert (item["taskId"], item["status"], item["candidates"], item["employer"]) == (
        task_id, "needs_review", count, "Acme",
    )  # fmt: skip
    assert world.listed["total"] == 1


def _review(client: TestClient, task_id: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/v1/contacts/research/{task_id}")
    assert response.status_code == 200, response.text
    return {c["candidateId"]: c for c in response.json()["candidates"]}


@then(parsers.parse('the review of task "{task_id}" shows "{a}" and "{b}", both awaiting a decision'))
def review_both(client: TestClient, task_id: str, a: str, b: str) -> None:
    candidates = _review(client, task_id).values()
    assert sorted((c["name"], c["status"]) for c in candidates) == [(a, "needs_review"), (b, "needs_review")]
    assert all(c["sourceRef"].endswith("/team") for c in candidates)


@then(parsers.parse('the command line lists task "{task_id}" and shows "{name}"'))
def cli_lists(task_id: str, name: str) -> None:
    listed = _cli("list")
    assert listed.exit_code == 0, listed.output
    assert task_id in listed.output and "needs_review" in listed.output
    shown = _cli("show", task_id)
    assert shown.exit_code == 0, shown.output
    assert name in shown.output


@when(parsers.parse('the user confirms "{name}" through the API'))
def confirm_api(client: TestClient, world: World, name: str) -> None:
    cid = world.candidates[name]
    response = client.post(f"/v1/contacts/research/{world.task_id}/candidates/{cid}/confirm")
    assert response.status_code == 201, response.text
    assert response.json() == {
        "taskId": world.task_id, "candidateId": cid, "status": "confirmed", "contactId": cid,
    }  # fmt: skip


@when(parsers.parse('the user rejects "{name}" through the command line'))
def reject_cli(world: World, name: str) -> None:
    result = _cli("reject", world.task_id, world.candidates[name], "--reason", "wrong_team")
    assert result.exit_code == 0, result.output


@then(
    parsers.parse(
        'the review of task "{task_id}" shows "{name}" confirmed and a rejected candidate whose name can no'
        " longer be read"
    )
)
def review_decided(client: TestClient, world: World, task_id: str, name: str) -> None:
    candidates = _review(client, task_id)
    assert (candidates[world.candidates[name]]["status"], candidates[world.candidates[name]]["name"]) == (
        "confirmed",
        name,
    )
    rejected = candidates[world.candidates["Bob Smith"]]
    assert (rejected["status"], rejected["name"], rejected["email"]) == ("rejected", None, None)


@then(parsers.parse('a contact exists for "{kept}" and none for "{dropped}"'))
def contacts_exist(svc: ContactServices, world: World, kept: str, dropped: str) -> None:
    assert svc.contacts.get(world.candidates[kept]).exists
    assert svc.contacts.load(world.candidates[dropped]) is None
    [rejection] = svc.store.read_all(types=["ContactCandidateRejected"])
    assert svc.store.registry.decode(rejection).reason == "wrong_team"  # type: ignore[attr-defined]


def _refused(svc: ContactServices, response: Any, status: int) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"]


@then("confirming the rejected candidate through the API answers 409 and writes nothing")
def confirm_rejected(client: TestClient, svc: ContactServices, world: World) -> None:
    head = svc.store.head_position()
    cid = world.candidates["Bob Smith"]
    _refused(svc, client.post(f"/v1/contacts/research/{world.task_id}/candidates/{cid}/confirm"), 409)
    assert svc.store.head_position() == head


@then(
    parsers.parse(
        'confirming candidate "{cid}" of task "{task_id}" through the API answers 404 and writes nothing'
    )
)
def confirm_unknown_candidate(client: TestClient, svc: ContactServices, cid: str, task_id: str) -> None:
    head = svc.store.head_position()
    _refused(svc, client.post(f"/v1/contacts/research/{task_id}/candidates/{cid}/confirm"), 404)
    assert svc.store.head_position() == head


@then(
    parsers.parse('confirming a candidate of task "{task_id}" through the API answers 404 and writes nothing')
)
def confirm_unknown_task(client: TestClient, svc: ContactServices, world: World, task_id: str) -> None:
    head = svc.store.head_position()
    cid = world.candidates["Jane Doe"]
    _refused(svc, client.post(f"/v1/contacts/research/{task_id}/candidates/{cid}/confirm"), 404)
    assert svc.store.head_position() == head


@then(parsers.parse('rejecting with the reason "{reason}" through the API answers 422 and writes nothing'))
def reject_bad_reason(client: TestClient, svc: ContactServices, world: World, reason: str) -> None:
    head = svc.store.head_position()
    cid = world.candidates["Jane Doe"]
    url = f"/v1/contacts/research/{world.task_id}/candidates/{cid}/reject"
    _refused(svc, client.post(url, json={"reason": reason}), 422)
    assert svc.store.head_position() == head


@then(
    parsers.parse(
        'rejecting candidate "{cid}" of task "{task_id}" through the command line exits 1 and writes nothing'
    )
)
def reject_unknown_cli(svc: ContactServices, cid: str, task_id: str) -> None:
    head = svc.store.head_position()
    result = _cli("reject", task_id, cid)
    assert result.exit_code == 1, result.output
    assert "candidate_not_found" in result.output
    assert svc.store.head_position() == head
