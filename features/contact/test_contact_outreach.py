"""Step definitions for features/contact/outreach.feature: contact's outreach use cases through the
runtime's composition (the offline provider recording into the spend ledger, the truthfulness gate
over the saved profile), read back through the real projection runner and the outreach routes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import parsers, scenarios, then, when

from jobctrl.contact import (
    ContactRuleViolation,
    ContactServices,
    DraftedMessage,
    DraftVersionMismatch,
    InvalidOutreachInput,
    OutreachTransitionError,
    SubjectForgotten,
    UnsupportedOutreachClaims,
    approve_outreach,
    complete_follow_up,
    delete_contact,
    draft_outreach,
    log_outreach_send,
    read_outreach,
    record_outreach_reply,
    reject_outreach,
    revise_outreach,
    schedule_follow_up,
)
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import Database
from jobctrl.orchestration import create_orchestration_tables, ledger_with_settings
from jobctrl.projections.digest import table_digests
from jobctrl.projections.rebuild import rebuild
from jobctrl.runtime.composition.outreach import outreach_llm, outreach_services
from jobctrl.testing.runtime.api_seed import project

from .conftest import World

pytestmark = [pytest.mark.both_databases, pytest.mark.usefixtures("same_keys")]
scenarios("contact/outreach.feature")


@pytest.fixture
def out(database: Database, svc: ContactServices) -> ContactServices:
    """Outreach's services as the runtime composes them (built after the profile is saved)."""
    create_orchestration_tables(database)
    return outreach_services(
        database, svc.store, svc.clock, LOCAL_TENANT, llm=outreach_llm(database, svc.clock)
    )


def _refused(svc: ContactServices, error: type[JobCtrlError], step: Any) -> JobCtrlError:
    head = svc.store.head_position()
    with pytest.raises(error) as caught:
        step()
    assert svc.store.head_position() == head, "a refused step wrote to the log"
    return caught.value


def _draft(out: ContactServices, world: World, name: str, *points: str) -> DraftedMessage:
    return draft_outreach(
        out, world.candidates[name], job_id="job-1", role=world.role, employer=world.employer, points=points
    )


@when(
    parsers.parse(
        'the user asks the offline model for a draft to "{name}" about the "{role}" role at "{employer}"'
    )
)
def ask_draft(out: ContactServices, world: World, name: str, role: str, employer: str) -> None:
    world.role, world.employer = role, employer
    drafted = _draft(out, world, name)
    world.thread, world.draft = drafted.thread_id, drafted.draft_id


@then(
    parsers.parse(
        'the draft greets "{first}", names the "{role}" role and awaits review as generation {gen:d}'
    )
)
def draft_in_review(out: ContactServices, world: World, first: str, role: str, gen: int) -> None:
    text = read_outreach(out, world.thread)
    assert text.body is not None and text.body.startswith(f"Hi {first},") and role in text.body
    assert "Ada Lovelace" in text.body and text.subject and role in text.subject
    assert (text.thread.status, text.thread.generation) == ("needs_review", gen)


@then("the model call is counted in today's spend")
def spend_counted(database: Database, svc: ContactServices) -> None:
    status = ledger_with_settings(database, clock=svc.clock).status(LOCAL_TENANT)
    assert status.calls == 1


@then("the log holds the draft only sealed")
def sealed_in_log(svc: ContactServices, world: World) -> None:
    [event] = svc.store.read_all(types=["OutreachDraftGenerated"])
    raw = str(event.payload if hasattr(event, "payload") else event)
    decoded = svc.store.registry.decode(event)
    assert decoded.sealed_draft  # type: ignore[attr-defined]
    assert "Jane" not in decoded.sealed_draft and "Jane" not in raw  # type: ignore[attr-defined]
    assert "Staff Platform Engineer" not in raw


@when(parsers.parse('the user asks for a new draft that makes the point "{point}"'))
def ask_bad_draft(out: ContactServices, world: World, point: str) -> None:
    refused = _refused(out, UnsupportedOutreachClaims, lambda: _draft(out, world, "Jane Doe", point))
    assert isinstance(refused, UnsupportedOutreachClaims)
    world.refused = refused


@then(
    parsers.parse('it is refused for the unsupported claims "{a}", "{b}" and "{c}", and nothing is written')
)
def refused_claims(out: ContactServices, world: World, a: str, b: str, c: str) -> None:
    assert world.refused is not None
    claims = world.refused.claims
    tokens = {claim.split(":", 1)[1] for claim in claims}
    assert {a, b, c} <= tokens, claims
    assert read_outreach(out, world.thread).thread.generation == 1


@when(parsers.parse('the user edits the draft to say "{sentence}"'))
def edit(out: ContactServices, world: World, sentence: str) -> None:
    body = f"Hi Jane,\n\n{sentence}\nWould you be open to a short conversation?\n\nAda Lovelace"
    revise_outreach(out, world.thread, subject="A question", body=body)
    world.sentence = sentence


@then(parsers.parse("the draft awaits review as generation {gen:d}"))
def in_review(out: ContactServices, world: World, gen: int) -> None:
    text = read_outreach(out, world.thread)
    assert (text.thread.status, text.thread.generation) == ("needs_review", gen)
    assert text.body is not None and world.sentence in text.body


@then("approving generation 1 is refused as not the version under review, and nothing is written")
def stale_approval(out: ContactServices, world: World) -> None:
    _refused(
        out, DraftVersionMismatch,
        lambda: approve_outreach(out, world.thread, draft_id=world.draft, generation=1),
    )  # fmt: skip


@when(parsers.parse("the user approves generation {gen:d}"))
def approve(out: ContactServices, world: World, gen: int) -> None:
    approve_outreach(out, world.thread, draft_id=world.draft, generation=gen)


@when(parsers.parse('the user says they sent it by "{channel}"'))
def sent(out: ContactServices, world: World, channel: str) -> None:
    log_outreach_send(out, world.thread, channel=channel)


def _thread_row(client: TestClient, database: Database, world: World) -> dict[str, Any]:
    project(database)
    response = client.get("/v1/outreach/threads", params={"contactId": world.contact_id})
    assert response.status_code == 200, response.text
    [row] = response.json()["items"]
    return dict(row)


@then(parsers.parse('the thread shows the draft sent once by "{channel}"'))
def shows_sent(client: TestClient, database: Database, world: World, channel: str) -> None:
    row = _thread_row(client, database, world)
    assert (row["draftStatus"], row["sends"], row["sendChannel"], row["generation"]) == (
        "sent",
        1,
        channel,
        2,
    )


@then("marking it sent again is refused, and nothing is written")
def sent_twice(out: ContactServices, world: World) -> None:
    _refused(out, OutreachTransitionError, lambda: log_outreach_send(out, world.thread, channel="email"))


@when(parsers.parse('the user records a reply by "{channel}" noting "{note}"'))
def reply(out: ContactServices, world: World, channel: str, note: str) -> None:
    record_outreach_reply(out, world.thread, channel=channel, note=note)


@when(parsers.parse("the user sets a follow-up for {days:d} days from now"))
def follow_up(out: ContactServices, world: World, days: int) -> None:
    schedule_follow_up(out, world.thread, due_at=out.clock.now() + timedelta(days=days))


@then(parsers.parse('the thread shows {n:d} reply and the note "{note}"'))
def shows_reply(
    client: TestClient, database: Database, out: ContactServices, world: World, n: int, note: str
) -> None:
    assert _thread_row(client, database, world)["replies"] == n
    assert [r.note for r in read_outreach(out, world.thread).replies] == [note]


def _due(client: TestClient, database: Database) -> list[str]:
    project(database)
    response = client.get("/v1/outreach/follow-ups/due")
    assert response.status_code == 200, response.text
    return [t["threadId"] for t in response.json()["items"]]


@then("no follow-up is due")
def none_due(client: TestClient, database: Database) -> None:
    assert _due(client, database) == []


@when(parsers.parse("{days:d} days pass"))
def days_pass(svc: ContactServices, days: int) -> None:
    svc.clock.advance(timedelta(days=days))  # type: ignore[attr-defined]


@then("the thread's follow-up is due")
def due(client: TestClient, database: Database, world: World) -> None:
    assert _due(client, database) == [world.thread]


@when("the user marks the follow-up done")
def done(out: ContactServices, world: World) -> None:
    complete_follow_up(out, world.thread)


@then("rebuilding the read models from the log gives the same rows as the incremental fold")
def rebuild_equal(database: Database, svc: ContactServices) -> None:
    project(database)
    incremental = table_digests(database)
    rebuild(database, svc.store.registry, batch_size=3)
    assert table_digests(database) == incremental


@then("saying it was sent before it is approved is refused as an invalid transition, and nothing is written")
def send_unapproved(out: ContactServices, world: World) -> None:
    _refused(out, OutreachTransitionError, lambda: log_outreach_send(out, world.thread, channel="email"))


@then(
    "recording a reply before anything was sent is refused as an invalid transition, and nothing is written"
)
def reply_unsent(out: ContactServices, world: World) -> None:
    _refused(out, OutreachTransitionError, lambda: record_outreach_reply(out, world.thread, channel="email"))


@then("completing a follow-up that was never set is refused as an invalid transition, and nothing is written")
def complete_unset(out: ContactServices, world: World) -> None:
    _refused(out, OutreachTransitionError, lambda: complete_follow_up(out, world.thread))


@then("a draft to a person who was never confirmed is refused, and nothing is written")
def draft_unconfirmed(out: ContactServices, world: World) -> None:
    _refused(out, ContactRuleViolation, lambda: _draft(out, world, "Bob Smith"))


@then(
    parsers.parse('rejecting with the reason "{reason}" is refused as invalid input, and nothing is written')
)
def reject_bad_reason(out: ContactServices, world: World, reason: str) -> None:
    _refused(
        out, InvalidOutreachInput,
        lambda: reject_outreach(out, world.thread, draft_id=world.draft, generation=1, reason=reason),
    )  # fmt: skip


@when(parsers.parse('the user deletes the contact "{name}"'))
def delete(svc: ContactServices, world: World, name: str) -> None:
    delete_contact(svc, world.candidates[name])


@then("the thread opens to no subject, no body and no reply note")
def opens_to_nothing(out: ContactServices, world: World) -> None:
    text = read_outreach(out, world.thread)
    assert (text.subject, text.body) == (None, None)
    assert [r.note for r in text.replies] == [None]


@then(parsers.parse('a new draft to "{name}" is refused, and nothing is written'))
def redraft_deleted(out: ContactServices, world: World, name: str) -> None:
    error = _refused(out, JobCtrlError, lambda: _draft(out, world, name))
    assert isinstance(error, ContactRuleViolation | SubjectForgotten)
