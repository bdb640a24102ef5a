"""The candidate profile and its continuation outbox."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.events._types import ContinuationOutcome


# -- profile --------------------------------------------------------------------------------------
class ProfileUpdated(DomainEvent, frozen=True):
    event_type = "ProfileUpdated"
    changed_sections: list[str]
    updated_at: str


class ProfileImported(DomainEvent, frozen=True):
    event_type = "ProfileImported"
    source: str
    imported_sections: list[str]
    imported_at: str


class ProfileRevisionSaved(DomainEvent, frozen=True):
    """Every accepted save: the normalized profile content and its digests (profile version N).

    ``factsDigest`` covers what preparation depends on; ``presentationDigest`` covers style/template
    sections only, so a presentation-only save is recorded but starts nothing."""

    event_type = "ProfileRevisionSaved"
    profile_version: Annotated[int, msgspec.Meta(ge=1)]
    content: dict[str, Any]
    facts_digest: str
    presentation_digest: str
    saved_at: str


class ProfileContinuationQueued(DomainEvent, frozen=True):
    """The outbox fact committed with a genuine ``ProfileUpdated``: preparation must continue."""

    event_type = "ProfileContinuationQueued"
    intent_id: str
    profile_version: int
    profile_event_id: str
    workflow_id: str
    queued_at: str


class ProfileContinuationDispatchIntended(DomainEvent, frozen=True):
    """Appended before the Temporal start: from here on the revision may have started."""

    event_type = "ProfileContinuationDispatchIntended"
    intent_id: str
    workflow_id: str
    intended_at: str


class ProfileContinuationCoalesced(DomainEvent, frozen=True):
    """A revision that provably never started is folded into a newer one."""

    event_type = "ProfileContinuationCoalesced"
    intent_id: str
    into_intent_id: str
    coalesced_at: str


class ProfileContinuationClosed(DomainEvent, frozen=True):
    """The terminal fact of a dispatched continuation (ADR 0077): its execution ended for good, so the
    outbox never describes, attaches to or starts it again, even once Temporal's retention has purged
    its history.  ``recordedBy`` says who saw the end: the workflow itself (success, failure, cancel)
    or a drain that found it closed in Temporal (terminated, timed out, or ended before this fact)."""

    event_type = "ProfileContinuationClosed"
    intent_id: str
    workflow_id: str
    outcome: ContinuationOutcome
    closed_at: str
    recorded_by: Literal["workflow", "outbox_drain"]
