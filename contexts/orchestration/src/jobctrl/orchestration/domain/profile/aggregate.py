"""CandidateProfile (stream ``profile-{tenant}``): versions and the continuation outbox.

A genuine change appends ``ProfileRevisionSaved``, ``ProfileUpdated`` and ``ProfileContinuationQueued``
in one save, so the change and its outbox fact commit in the same transaction or not at all.  A
normalized no-op appends nothing; a presentation-only save appends only the revision.

Each queued continuation has a deterministic workflow id derived from the id of the
``ProfileUpdated`` event it delivers.  Draining the outbox:
* queued intents that never had a dispatch intent provably never started: all but the newest are
  coalesced into the newest;
* the newest gets ``ProfileContinuationDispatchIntended`` before the caller starts it;
* intents with a dispatch intent whose workflow is not known closed are re-attached, never coalesced;
* a continuation that ended has ``ProfileContinuationClosed`` (ADR 0077): it is never described,
  attached to or started again, whatever Temporal still remembers of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from jobctrl.kernel.aggregate import Aggregate, applies, event_id_for
from jobctrl.kernel.ids import deterministic_id
from jobctrl.orchestration.domain.profile.normalize import (
    FACT_SECTIONS,
    PRESENTATION_SECTIONS,
    changed_sections,
    digest,
    normalize_profile,
)
from jobctrl.orchestration.events import (
    ContinuationOutcome,
    ProfileContinuationClosed,
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileRevisionSaved,
    ProfileUpdated,
)


class SaveOutcome(StrEnum):
    NO_CHANGE = "no_change"
    PRESENTATION_ONLY = "presentation_only"
    UPDATED = "updated"


class IntentStatus(StrEnum):
    QUEUED = "queued"
    DISPATCH_INTENDED = "dispatch_intended"
    COALESCED = "coalesced"
    CLOSED = "closed"


class DispatchKind(StrEnum):
    START = "start"
    ATTACH = "attach"


@dataclass
class Intent:
    intent_id: str
    profile_version: int
    profile_event_id: str
    workflow_id: str
    status: IntentStatus = IntentStatus.QUEUED


@dataclass(frozen=True)
class Dispatch:
    kind: DispatchKind
    intent_id: str
    workflow_id: str
    profile_version: int


def continuation_workflow_id(tenant_id: str, profile_event_id: str) -> str:
    digest_hex = hashlib.sha256(f"{tenant_id}\x1f{profile_event_id}".encode()).hexdigest()
    return f"profile-continuation-{digest_hex[:24]}"


class CandidateProfile(Aggregate):
    stream_prefix = "profile"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.profile_version = 0
        self.content: dict[str, Any] = {}
        self.facts_digest = digest({}, FACT_SECTIONS)
        self.presentation_digest = digest({}, PRESENTATION_SECTIONS)
        self.intents: dict[str, Intent] = {}

    def _next_event_id(self, event: Any) -> str:
        # The id the repository will give this event: deterministic from stream and version.
        return event_id_for(self.stream_id, self.version + len(self.pending_events) + 1, event)

    # -- commands -------------------------------------------------------------------------------
    def save(self, content: Mapping[str, Any], *, at: str) -> SaveOutcome:
        normalized = normalize_profile(content)
        facts = digest(normalized, FACT_SECTIONS)
        presentation = digest(normalized, PRESENTATION_SECTIONS)
        if facts == self.facts_digest and presentation == self.presentation_digest:
            return SaveOutcome.NO_CHANGE
        before = self.content
        self._record(
            ProfileRevisionSaved(
                profile_version=self.profile_version + 1,
                content=normalized,
                facts_digest=facts,
                presentation_digest=presentation,
                saved_at=at,
            )
        )
        if facts == digest(before, FACT_SECTIONS):
            return SaveOutcome.PRESENTATION_ONLY
        updated = ProfileUpdated(
            changed_sections=changed_sections(before, normalized, FACT_SECTIONS), updated_at=at
        )
        profile_event_id = self._next_event_id(updated)
        self._record(updated)
        self._record(
            ProfileContinuationQueued(
                intent_id=deterministic_id("profile-continuation", self.id, profile_event_id),
                profile_version=self.profile_version,
                profile_event_id=profile_event_id,
                workflow_id=continuation_workflow_id(self.id, profile_event_id),
                queued_at=at,
            )
        )
        return SaveOutcome.UPDATED

    def close(
        self,
        workflow_id: str,
        outcome: ContinuationOutcome,
        *,
        at: str,
        recorded_by: Literal["workflow", "outbox_drain"],
    ) -> bool:
        """Record the end of a dispatched continuation once; ``False`` when there is nothing to close
        (unknown id, never dispatched, or closed already)."""
        intent = next((i for i in self.intents.values() if i.workflow_id == workflow_id), None)
        if intent is None or intent.status is not IntentStatus.DISPATCH_INTENDED:
            return False
        self._record(
            ProfileContinuationClosed(
                intent_id=intent.intent_id,
                workflow_id=workflow_id,
                outcome=outcome,
                closed_at=at,
                recorded_by=recorded_by,
            )
        )
        return True

    def drain(self, *, at: str, closed: Callable[[str], bool]) -> list[Dispatch]:
        """Decide the outbox: attachments first (older executions), then at most one start."""
        plan: list[Dispatch] = []
        for intent in sorted(self.intents.values(), key=lambda i: i.profile_version):
            if intent.status is IntentStatus.DISPATCH_INTENDED and not closed(intent.workflow_id):
                plan.append(
                    Dispatch(
                        DispatchKind.ATTACH, intent.intent_id, intent.workflow_id, intent.profile_version
                    )
                )
        never_started = sorted(
            (i for i in self.intents.values() if i.status is IntentStatus.QUEUED),
            key=lambda i: i.profile_version,
        )
        if not never_started:
            return plan
        newest = never_started[-1]
        for older in never_started[:-1]:
            self._record(
                ProfileContinuationCoalesced(
                    intent_id=older.intent_id, into_intent_id=newest.intent_id, coalesced_at=at
                )
            )
        self._record(
            ProfileContinuationDispatchIntended(
                intent_id=newest.intent_id, workflow_id=newest.workflow_id, intended_at=at
            )
        )
        plan.append(
            Dispatch(DispatchKind.START, newest.intent_id, newest.workflow_id, newest.profile_version)
        )
        return plan

    # -- fold -----------------------------------------------------------------------------------
    @applies(ProfileRevisionSaved)
    def _saved(self, e: ProfileRevisionSaved) -> None:
        self.profile_version = e.profile_version
        self.content = e.content
        self.facts_digest = e.facts_digest
        self.presentation_digest = e.presentation_digest

    @applies(ProfileUpdated)
    def _updated(self, e: ProfileUpdated) -> None:
        return None  # the content already changed with its revision; this is the published fact

    @applies(ProfileContinuationQueued)
    def _queued(self, e: ProfileContinuationQueued) -> None:
        self.intents[e.intent_id] = Intent(e.intent_id, e.profile_version, e.profile_event_id, e.workflow_id)

    @applies(ProfileContinuationDispatchIntended)
    def _intended(self, e: ProfileContinuationDispatchIntended) -> None:
        self.intents[e.intent_id].status = IntentStatus.DISPATCH_INTENDED

    @applies(ProfileContinuationCoalesced)
    def _coalesced(self, e: ProfileContinuationCoalesced) -> None:
        self.intents[e.intent_id].status = IntentStatus.COALESCED

    @applies(ProfileContinuationClosed)
    def _closed(self, e: ProfileContinuationClosed) -> None:
        self.intents[e.intent_id].status = IntentStatus.CLOSED
