"""Profile revisions keep no profile content; an outbox intent that may have started is never
coalesced away; feedback sorts into useful / duplicate / poor per source."""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.events import DiscoveryFeedbackRecorded, FeedbackKind
from jobctrl.orchestration.events import (
    ContinuationOutcome,
    ProfileContinuationClosed,
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileRevisionSaved,
)
from jobctrl.projections.model import EventInfo, Projection
from jobctrl.projections.read_models import profiles, source_quality

AT = "2026-03-01T09:00:00.000Z"


def fold(projection: Projection, *events: Any) -> dict[Any, Any]:
    folds = {f.event.event_type: f for f in projection.folds}
    rows: dict[Any, Any] = {}
    for n, event in enumerate(events, start=1):
        fold = folds[event.event_type]
        info = EventInfo.of(n, event.event_type, "local", AT, b"{}")
        key = (fold.target.name, fold.key(event, info))
        after = fold.apply(rows.get(key), event, info)
        if after is not None:
            rows[key] = after
    return rows


def test_a_revision_row_names_its_sections_but_holds_none_of_the_content() -> None:
    saved = ProfileRevisionSaved(
        profile_version=2,
        content={"skills": ["python"], "contact": {"email": "me@example.org"}},
        facts_digest="f2",
        presentation_digest="p1",
        saved_at=AT,
    )
    (row,) = fold(profiles.PROJECTION, saved).values()
    assert (row.profile_version, row.facts_digest, row.sections_json) == (2, "f2", '["contact","skills"]')
    assert "example.org" not in repr(row)


def test_an_intent_that_may_have_started_is_never_coalesced() -> None:
    rows = fold(
        profiles.PROJECTION,
        ProfileContinuationQueued(
            intent_id="i1", profile_version=1, profile_event_id="e1", workflow_id="prepare", queued_at=AT
        ),
        ProfileContinuationDispatchIntended(intent_id="i1", workflow_id="prepare", intended_at=AT),
        ProfileContinuationCoalesced(intent_id="i1", into_intent_id="i2", coalesced_at=AT),
        ProfileContinuationQueued(
            intent_id="i3", profile_version=2, profile_event_id="e2", workflow_id="prepare", queued_at=AT
        ),
        ProfileContinuationCoalesced(intent_id="i3", into_intent_id="i4", coalesced_at=AT),
    )
    by_intent = {row.intent_id: row for row in rows.values()}
    assert (by_intent["i1"].status, by_intent["i1"].into_intent_id) == ("dispatch_intended", None)
    assert (by_intent["i3"].status, by_intent["i3"].into_intent_id) == ("coalesced", "i4")


def test_only_a_dispatched_continuation_closes_and_only_once() -> None:
    def closed(intent: str, outcome: ContinuationOutcome) -> ProfileContinuationClosed:
        return ProfileContinuationClosed(
            intent_id=intent, workflow_id="prepare", outcome=outcome, closed_at=AT, recorded_by="workflow"
        )

    rows = fold(
        profiles.PROJECTION,
        ProfileContinuationQueued(
            intent_id="i1", profile_version=1, profile_event_id="e1", workflow_id="prepare", queued_at=AT
        ),
        ProfileContinuationDispatchIntended(intent_id="i1", workflow_id="prepare", intended_at=AT),
        closed("i1", "succeeded"),
        closed("i1", "failed"),  # a second close changes nothing
        ProfileContinuationQueued(
            intent_id="i2", profile_version=2, profile_event_id="e2", workflow_id="prepare", queued_at=AT
        ),
        ProfileContinuationCoalesced(intent_id="i2", into_intent_id="i3", coalesced_at=AT),
        closed("i2", "failed"),  # never started: stays coalesced
        closed("i9", "failed"),  # unknown intent: no row
    )
    by_intent = {row.intent_id: row for row in rows.values()}
    assert set(by_intent) == {"i1", "i2"}
    assert (by_intent["i1"].status, by_intent["i1"].last_event_position) == ("closed", 3)
    assert by_intent["i2"].status == "coalesced"


def test_feedback_sorts_into_useful_duplicate_and_poor_per_source() -> None:
    kinds: tuple[FeedbackKind, ...] = ("useful", "saved", "duplicate", "bad_source", "wrong_location")
    events = [
        DiscoveryFeedbackRecorded(feedback_id=f"f{n}", job_id="j", source_id="s1", kind=k, recorded_at=AT)
        for n, k in enumerate(kinds)
    ]
    events.append(
        DiscoveryFeedbackRecorded(feedback_id="fx", job_id="j", source_id=None, kind="useful", recorded_at=AT)
    )
    (row,) = fold(source_quality.PROJECTION, *events).values()
    assert (row.source_id, row.feedback_useful, row.feedback_duplicate, row.feedback_poor) == ("s1", 2, 1, 2)
    assert row.kind is None  # known from feedback only: not registered yet
