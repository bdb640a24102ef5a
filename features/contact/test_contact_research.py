"""Step definitions for features/contact/research.feature."""

from __future__ import annotations

import asyncio

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.contact.domain.aggregates import ContactRuleViolation
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
from jobctrl.contact.use_cases.run_research import ResearchReport, run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research

from .conftest import CareersSite, World

pytestmark = pytest.mark.both_databases
scenarios("contact/research.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


def _run(svc: ContactServices, world: World, urls: list[str], supplied: list[str] | None = None) -> None:
    policy = SourceAccessPolicy(allowlist_from(supplied or urls), allow_loopback_for_tests=True)
    report: ResearchReport = asyncio.run(run_research(svc, world.task_id, urls, policy))
    world.attempts = {a.url: a for a in report.attempts}


@given("research ran on the team page the user supplied")
@when("research runs on the team page the user supplied")
def run_team(svc: ContactServices, site: CareersSite, world: World) -> None:
    _run(svc, world, [f"{site.base}/team"])


@when("research runs on the team page and on a page of another host")
def run_other_host(svc: ContactServices, site: CareersSite, world: World) -> None:
    world.other_url = f"http://other.example:{site.base.rsplit(':', 1)[1]}/other"
    _run(svc, world, [f"{site.base}/team", world.other_url], supplied=[f"{site.base}/team"])


@when(parsers.parse('research runs on "{url}"'))
def run_one(svc: ContactServices, world: World, url: str) -> None:
    world.url = url
    _run(svc, world, [url])


@when("research runs on the team page and on the private page robots.txt disallows")
def run_private(svc: ContactServices, site: CareersSite, world: World) -> None:
    world.private_url = f"{site.base}/private"
    _run(svc, world, [f"{site.base}/team", world.private_url])


@when(parsers.parse('the user confirms "{name}"'))
def confirm(svc: ContactServices, world: World, name: str) -> None:
    task = svc.tasks.get(world.task_id)
    [candidate_id] = [
        cid
        for cid, c in task.candidates.items()
        if (svc.vault.open(cid, c.sealed_candidate) or {}).get("name") == name
    ]
    world.candidate_id = candidate_id
    world.contact_id = confirm_candidate(svc, world.task_id, candidate_id)


@then(parsers.parse("the task needs review with {count:d} candidates"))
def needs_review(svc: ContactServices, world: World, count: int) -> None:
    task = svc.tasks.get(world.task_id)
    assert task.state == "needs_review" and len(task.candidates) == count
    assert all(not c.sealed_candidate or c.capture_method == "llm_assisted" for c in task.candidates.values())


@then("no contact exists")
def no_contact(svc: ContactServices) -> None:
    assert svc.store.read_all(types=["ContactCreated"]) == []


@then(parsers.parse('the other host\'s page is recorded as "{outcome}" with reason "{reason}"'))
def other_recorded(world: World, outcome: str, reason: str) -> None:
    attempt = world.attempts[world.other_url]
    assert (attempt.outcome.value, attempt.reason) == (outcome, reason)


@then("the careers site served no request for the other page")
def no_other_request(site: CareersSite) -> None:
    assert site.hits["/other"] == 0 and site.hits["/team"] == 1


@then(parsers.parse('that URL is recorded as "{outcome}" with reason "{reason}"'))
def url_recorded(svc: ContactServices, world: World, outcome: str, reason: str) -> None:
    attempt = world.attempts[world.url]
    assert (attempt.outcome.value, attempt.reason) == (outcome, reason)
    [stored] = svc.store.read_all(types=["ContactResearchSourceAttempted"])
    assert svc.store.registry.decode(stored).outcome == outcome  # type: ignore[attr-defined]


@then(parsers.parse('the private page is recorded as "{outcome}"'))
def private_recorded(world: World, outcome: str) -> None:
    assert world.attempts[world.private_url].outcome.value == outcome


@then("the careers site served no request for the private page")
def no_private_request(site: CareersSite) -> None:
    assert site.hits["/private"] == 0


@then(parsers.parse('a contact exists whose name reads "{name}"'))
def contact_named(svc: ContactServices, world: World, name: str) -> None:
    contact = svc.contacts.get(world.contact_id)
    assert contact.exists and not contact.deleted
    [name_event] = [
        svc.store.registry.decode(e)
        for e in svc.store.read_stream(contact.stream_id)
        if e.event_type == "ContactAttributeRecorded" and b'"attributeKind":"name"' in e.payload
    ]
    assert svc.vault.open(contact.id, name_event.sealed_value) == {"value": name}  # type: ignore[attr-defined]


@then(parsers.parse('confirming "{name}" again is refused'))
def confirm_again(svc: ContactServices, world: World, name: str) -> None:
    head = svc.store.head_position()
    with pytest.raises(ContactRuleViolation):
        confirm_candidate(svc, world.task_id, world.candidate_id)
    assert svc.store.head_position() == head


@then("starting research with neither employer nor job is refused and writes nothing")
def start_without_target(svc: ContactServices) -> None:
    head = svc.store.head_position()
    with pytest.raises(ContactRuleViolation):
        start_research(svc, "t2", employer=None, job_id=None)
    assert svc.store.head_position() == head
