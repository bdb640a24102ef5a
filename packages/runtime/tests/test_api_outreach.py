"""Outreach threads as the contact context publishes them, folded by the real projection runner into
``outreach_thread_projections`` and served by ``GET /v1/outreach/threads`` and
``/v1/outreach/follow-ups/due``; the incremental fold equals a rebuild of the log, byte for byte."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobctrl.contact.events import (
    FollowUpDismissed,
    FollowUpScheduled,
    OutreachDraftApproved,
    OutreachDraftGenerated,
    OutreachDraftRejected,
    OutreachDraftRevised,
    OutreachSendLogged,
)
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.store import Database
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models import outreach
from jobctrl.projections.rebuild import rebuild

from .api_world import NOW, ApiWorld, api_world

T0, LATER, DUE, FUTURE = (
    "2026-02-20T09:00:00Z",
    "2026-02-21T09:00:00Z",
    "2026-02-28T09:00:00Z",
    "2026-03-09T09:00:00Z",
)


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[ApiWorld]:
    yield from api_world(db_url, database)


def _publish(world: ApiWorld, thread: str, *events: DomainEvent) -> None:
    world.store.append(f"outreach-{thread}", None, [NewEvent.of(e, occurred_at=NOW) for e in events])


@pytest.mark.both_databases
def test_threads_fold_draft_review_sends_and_follow_ups_and_equal_a_rebuild(world: ApiWorld) -> None:
    _publish(
        world, "t1",
        OutreachDraftGenerated("t1", "c1", "j1", "t1-d1", 1, "intro_request", T0),
        OutreachDraftRevised("t1", "t1-d2", 2, LATER),  # an edit: back to review
        OutreachDraftApproved("t1", "t1-d1", 1, LATER),  # a late approval of the older draft: ignored
        OutreachSendLogged("t1", "t1-d2", "email", LATER, LATER),  # not approved yet: ignored
        OutreachDraftApproved("t1", "t1-d2", 2, LATER),
        OutreachSendLogged("t1", "t1-d2", "email", LATER, LATER),
        FollowUpScheduled("t1", "j1", DUE, "no_reply", LATER),
    )  # fmt: skip
    _publish(
        world, "t2",
        OutreachDraftGenerated("t2", "c2", None, "t2-d1", 1, "follow_up", T0),
        OutreachDraftRejected("t2", "t2-d1", 1, "tone", LATER),
        FollowUpScheduled("t2", None, DUE, "manual", LATER),
        FollowUpDismissed("t2", "not_needed", LATER),
    )  # fmt: skip
    _publish(world, "t3", FollowUpScheduled("t3", "j3", FUTURE, "no_reply", LATER))  # no draft folded
    world.project()
    body = world.client.get("/v1/outreach/threads").json()
    rows = {t["threadId"]: t for t in body["items"]}
    assert body["total"] == 3
    t1, t2, t3 = rows["t1"], rows["t2"], rows["t3"]
    assert (t1["draftId"], t1["generation"], t1["draftStatus"], t1["sends"]) == ("t1-d2", 2, "sent", 1)
    assert (t1["followUpStatus"], t1["followUpDueAt"]) == ("scheduled", "2026-02-28T09:00:00.000Z")
    assert (t2["draftStatus"], t2["rejectionReason"], t2["followUpStatus"]) == (
        "rejected",
        "tone",
        "dismissed",
    )
    assert (t3["contactId"], t3["draftStatus"], t3["jobId"]) == (None, None, "j3")
    by_contact = world.client.get("/v1/outreach/threads", params={"contactId": "c2"}).json()
    assert [t["threadId"] for t in by_contact["items"]] == ["t2"]
    due = world.client.get("/v1/outreach/follow-ups/due").json()  # the clock is 2026-03-01
    assert [t["threadId"] for t in due["items"]] == ["t1"]
    assert world.client.get("/v1/outreach/threads", params={"contactId": "bad id!"}).status_code == 422
    incremental = table_digests(world.db)
    rebuild(world.db, world.store.registry, batch_size=3)
    assert table_digests(world.db) == incremental
    assert outreach.outreach_thread_projections.name in incremental
