"""The OutreachThread aggregate: one thread per contact (and job), its drafts, review, sends and
follow-up (ADR 0275).

A draft moves needs_review → approved → sent, or → rejected.  A new draft or an edit is a new
generation and goes back to review; approval binds the exact draft id and generation under review;
a send is only ever logged by the user, for the approved current draft (we never send outreach).
Replies are recorded by hand against a logged send.  A follow-up is scheduled → completed or
dismissed.  Every refused transition raises a typed error and records nothing.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from jobctrl.contact.events import (
    FollowUpCompleted,
    FollowUpDismissed,
    FollowUpScheduled,
    OutreachDraftApproved,
    OutreachDraftGenerated,
    OutreachDraftRejected,
    OutreachDraftRevised,
    OutreachReplyRecorded,
    OutreachSendLogged,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import deterministic_id


class OutreachTransitionError(JobCtrlError):
    """The thread is not in a state that allows this step."""

    code = "outreach_invalid_transition"
    retryable = False


class DraftVersionMismatch(JobCtrlError):
    """A decision named a draft version that is not the one under review."""

    code = "outreach_draft_version_mismatch"
    retryable = False


class UnsupportedOutreachClaims(JobCtrlError):
    """The draft states something the candidate profile does not support; nothing was written."""

    code = "outreach_unsupported_claims"
    retryable = False

    def __init__(self, claims: list[str]) -> None:
        super().__init__("unsupported claims: " + ", ".join(claims[:10]))
        self.claims = tuple(claims)


class InvalidOutreachInput(JobCtrlError):
    """A channel, reason, time or text the thread cannot take."""

    code = "outreach_invalid_input"
    retryable = False


class OutreachThreadNotFound(JobCtrlError):
    code = "outreach_thread_not_found"
    retryable = False


class DraftStatus(StrEnum):
    NEEDS_REVIEW = "needs_review"
    APPROVED = "approved"
    REJECTED = "rejected"
    SENT = "sent"


def thread_id_for(contact_id: str, job_id: str | None) -> str:
    """One thread per contact and job (or per contact alone)."""
    return deterministic_id("outreach-thread", contact_id, job_id or "")


class OutreachThread(Aggregate):
    stream_prefix = "outreach-thread"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.contact_id: str | None = None
        self.job_id: str | None = None
        self.draft_id: str | None = None
        self.generation = 0
        self.status: DraftStatus | None = None
        self.sealed_draft: str | None = None
        self.sends = 0
        self.replies: list[OutreachReplyRecorded] = []
        self.follow_up: Literal["scheduled", "completed", "dismissed"] | None = None
        self.follow_up_due_at: str | None = None

    @property
    def exists(self) -> bool:
        return self.contact_id is not None

    def ensure_can_draft(self) -> None:
        if self.status is DraftStatus.APPROVED:
            raise OutreachTransitionError(
                f"thread {self.id} has an approved draft: mark it sent before drafting again"
            )

    def ensure_can_revise(self) -> None:
        self._require_draft()
        if self.status is DraftStatus.SENT:
            raise OutreachTransitionError(f"thread {self.id}: a sent draft cannot be edited; draft anew")

    def draft(
        self, *, contact_id: str, job_id: str | None, sealed_draft: str, at: str
    ) -> OutreachDraftGenerated:
        self.ensure_can_draft()
        generation = self.generation + 1
        event = OutreachDraftGenerated(
            thread_id=self.id, contact_id=contact_id, job_id=job_id,
            draft_id=deterministic_id("outreach-draft", self.id, str(generation)), generation=generation,
            kind="follow_up" if self.sends else "intro_request", generated_at=at, sealed_draft=sealed_draft,
        )  # fmt: skip
        self._record(event)
        return event

    def revise(self, *, sealed_draft: str, at: str) -> OutreachDraftRevised:
        self.ensure_can_revise()
        assert self.draft_id is not None
        event = OutreachDraftRevised(
            thread_id=self.id, draft_id=self.draft_id, generation=self.generation + 1, revised_at=at,
            sealed_draft=sealed_draft,
        )  # fmt: skip
        self._record(event)
        return event

    def approve(self, *, draft_id: str, generation: int, at: str) -> None:
        self._require_review(draft_id, generation)
        self._record(
            OutreachDraftApproved(thread_id=self.id, draft_id=draft_id, generation=generation, approved_at=at)
        )

    def reject(self, *, draft_id: str, generation: int, reason: str, at: str) -> None:
        self._require_review(draft_id, generation)
        self._record(
            OutreachDraftRejected(
                thread_id=self.id, draft_id=draft_id, generation=generation, reason=reason, rejected_at=at
            )
        )

    def log_send(self, *, channel: str, sent_at: str, at: str) -> None:
        self._require_draft()
        if self.status is not DraftStatus.APPROVED:
            raise OutreachTransitionError(
                f"thread {self.id}: only an approved draft can be marked sent (it is {self.status})"
            )
        assert self.draft_id is not None
        self._record(
            OutreachSendLogged(
                thread_id=self.id, draft_id=self.draft_id, channel=channel, sent_at=sent_at, logged_at=at
            )
        )

    def ensure_can_reply(self) -> None:
        self._require_exists()
        if not self.sends:
            raise OutreachTransitionError(
                f"thread {self.id}: nothing was sent, so there is nothing to answer"
            )

    def record_reply(self, *, channel: str, received_at: str, sealed_note: str | None, at: str) -> str:
        self.ensure_can_reply()
        reply_id = deterministic_id("outreach-reply", self.id, str(len(self.replies) + 1))
        self._record(
            OutreachReplyRecorded(
                thread_id=self.id, reply_id=reply_id, channel=channel, received_at=received_at,
                recorded_at=at, sealed_note=sealed_note,
            )
        )  # fmt: skip
        return reply_id

    def schedule_follow_up(self, *, due_at: str, basis: str, at: str) -> None:
        self._require_exists()
        self._record(
            FollowUpScheduled(
                thread_id=self.id, job_id=self.job_id, due_at=due_at, basis=basis, scheduled_at=at
            )
        )

    def complete_follow_up(self, *, at: str) -> None:
        self._require_follow_up()
        self._record(FollowUpCompleted(thread_id=self.id, completed_at=at))

    def dismiss_follow_up(self, *, reason: str, at: str) -> None:
        self._require_follow_up()
        self._record(FollowUpDismissed(thread_id=self.id, reason=reason, dismissed_at=at))

    def _require_exists(self) -> None:
        if not self.exists:
            raise OutreachThreadNotFound(f"no outreach thread {self.id}")

    def _require_draft(self) -> None:
        self._require_exists()
        if self.draft_id is None:
            raise OutreachTransitionError(f"thread {self.id} has no draft")

    def _require_review(self, draft_id: str, generation: int) -> None:
        self._require_draft()
        if (draft_id, generation) != (self.draft_id, self.generation):
            raise DraftVersionMismatch(
                f"thread {self.id}: the draft under review is {self.draft_id} generation {self.generation}"
            )
        if self.status is not DraftStatus.NEEDS_REVIEW:
            raise OutreachTransitionError(f"thread {self.id}: the draft is {self.status}, not in review")

    def _require_follow_up(self) -> None:
        self._require_exists()
        if self.follow_up != "scheduled":
            raise OutreachTransitionError(f"thread {self.id} has no scheduled follow-up")

    @applies(OutreachDraftGenerated)
    def _generated(self, event: OutreachDraftGenerated) -> None:
        self.contact_id, self.job_id = event.contact_id, event.job_id
        self.draft_id, self.generation = event.draft_id, event.generation
        self.status, self.sealed_draft = DraftStatus.NEEDS_REVIEW, event.sealed_draft

    @applies(OutreachDraftRevised)
    def _revised(self, event: OutreachDraftRevised) -> None:
        self.draft_id, self.generation = event.draft_id, event.generation
        self.status, self.sealed_draft = DraftStatus.NEEDS_REVIEW, event.sealed_draft

    @applies(OutreachDraftApproved)
    def _approved(self, _: OutreachDraftApproved) -> None:
        self.status = DraftStatus.APPROVED

    @applies(OutreachDraftRejected)
    def _rejected(self, _: OutreachDraftRejected) -> None:
        self.status = DraftStatus.REJECTED

    @applies(OutreachSendLogged)
    def _sent(self, _: OutreachSendLogged) -> None:
        self.status = DraftStatus.SENT
        self.sends += 1

    @applies(OutreachReplyRecorded)
    def _replied(self, event: OutreachReplyRecorded) -> None:
        self.replies.append(event)

    @applies(FollowUpScheduled)
    def _scheduled(self, event: FollowUpScheduled) -> None:
        self.follow_up, self.follow_up_due_at = "scheduled", event.due_at

    @applies(FollowUpCompleted)
    def _completed(self, _: FollowUpCompleted) -> None:
        self.follow_up = "completed"

    @applies(FollowUpDismissed)
    def _dismissed(self, _: FollowUpDismissed) -> None:
        self.follow_up = "dismissed"
