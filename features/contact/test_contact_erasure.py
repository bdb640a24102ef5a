"""Step definitions for features/contact/erasure.feature."""

from __future__ import annotations

import asyncio

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from sqlalchemy import select

from jobctrl.contact.adapters.vault import FileKeyStore, contact_subject_keys
from jobctrl.contact.domain.aggregates import ContactRuleViolation
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
from jobctrl.contact.use_cases.delete_contact import delete_contact
from jobctrl.contact.use_cases.finish_review import finish_review
from jobctrl.contact.use_cases.run_research import run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.kernel.store import job_events

from .conftest import CareersSite, World

pytestmark = pytest.mark.both_databases
scenarios("contact/erasure.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@given(parsers.parse('a confirmed contact "{name}" with e-mail "{email}"'))
def confirmed_contact(svc: ContactServices, site: CareersSite, world: World, name: str, email: str) -> None:
    start_research(svc, "t1", employer="Acme", job_id=None)
    urls = [f"{site.base}/team"]
    asyncio.run(
        run_research(svc, "t1", urls, SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True))
    )
    task = svc.tasks.get("t1")
    [cid] = [
        c
        for c, p in task.candidates.items()
        if (svc.vault.open(c, p.sealed_candidate) or {}).get("name") == name
    ]
    world.contact_id = confirm_candidate(svc, "t1", cid)
    world.sealed_name = task.candidates[cid].sealed_candidate
    assert svc.vault.open(cid, world.sealed_name) is not None  # readable until deleted


def _all_rows(svc: ContactServices) -> list[str]:
    with svc.store.db.read() as conn:
        return [f"{p}{m}" for p, m in conn.execute(select(job_events.c.payload, job_events.c.metadata))]


@when("the user deletes that contact")
def delete(svc: ContactServices, world: World) -> None:
    delete_contact(svc, world.contact_id)


@then(parsers.parse('no job_events row contains "{name}" or "{email}"'))
def no_plaintext(svc: ContactServices, name: str, email: str) -> None:
    rows = _all_rows(svc)
    assert rows and not any(name in row or email in row for row in rows)


@then("a ContactDeleted event is in the log")
def deleted_event(svc: ContactServices) -> None:
    assert len(svc.store.read_all(types=["ContactDeleted"])) == 1


@then(parsers.parse('reading every sealed value of the log yields nothing about "{name}"'))
def nothing_readable(svc: ContactServices, world: World, name: str) -> None:
    opened = []
    for stored in svc.store.read_all(limit=10_000):
        event = svc.store.registry.decode(stored)
        for field in ("sealed_value", "sealed_candidate"):
            sealed = getattr(event, field, None)
            subject = getattr(event, "contact_id", None) or getattr(event, "candidate_id", None)
            if sealed and subject:
                opened.append(svc.vault.open(subject, sealed))
    assert opened and not any(name in str(value) for value in opened)
    assert svc.vault.open(world.contact_id, world.sealed_name) is None


@then("the contact's key is gone from the key store")
def key_gone(svc: ContactServices, world: World) -> None:
    with svc.store.db.read() as conn:
        key = conn.execute(
            select(contact_subject_keys.c.cipher_key).where(
                contact_subject_keys.c.subject_id == world.contact_id
            )
        ).scalar_one()
    assert key is None  # the database never held it
    assert svc.vault.keys.get(world.contact_id) is None
    assert isinstance(svc.vault.keys, FileKeyStore) and not svc.vault.keys.path(world.contact_id).exists()


@when("the user finishes the review")
def finish(svc: ContactServices, world: World) -> None:
    world.confirmed = finish_review(svc, "t1")


@then(parsers.parse("the task completed with {count:d} confirmed contact"))
def completed(svc: ContactServices, world: World, count: int) -> None:
    assert world.confirmed == count and svc.tasks.get("t1").state == "completed"


@then(parsers.parse('the sealed data of "{name}" can no longer be read'))
def unconfirmed_forgotten(svc: ContactServices, name: str) -> None:
    task = svc.tasks.get("t1")
    readable = [svc.vault.open(cid, c.sealed_candidate) for cid, c in task.candidates.items()]
    assert not any(name in str(v) for v in readable)
    assert any(v is not None for v in readable)  # the confirmed contact stays readable


@then("deleting it again is refused")
def delete_again(svc: ContactServices, world: World) -> None:
    with pytest.raises(ContactRuleViolation):
        delete_contact(svc, world.contact_id)
