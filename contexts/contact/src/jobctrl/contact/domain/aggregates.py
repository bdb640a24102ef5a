"""Contact and ContactResearchTask aggregates.

A research task moves started → (candidates proposed) → needs_review → completed, or → failed.  A
candidate becomes a contact only by explicit confirmation; a confirmed candidate cannot be confirmed
twice, a rejected one cannot be confirmed at all, and a finished task accepts nothing more.
"""

from __future__ import annotations

from enum import StrEnum

from jobctrl.contact.events import (
    ContactAttributeRecorded,
    ContactCandidateProposed,
    ContactCandidateRejected,
    ContactCreated,
    ContactDeleted,
    ContactResearchSourceAttempted,
    ContactResearchTaskCompleted,
    ContactResearchTaskFailed,
    ContactResearchTaskNeedsReview,
    ContactResearchTaskStarted,
    ContactRole,
    ContactSourceKind,
    ContactUpdated,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.text import bounded_code


class ContactRuleViolation(JobCtrlError):
    code = "contact_rule_violation"
    retryable = False


class TaskState(StrEnum):
    NEW = "new"
    RUNNING = "running"
    NEEDS_REVIEW = "needs_review"
    COMPLETED = "completed"
    FAILED = "failed"


class ContactResearchTask(Aggregate):
    stream_prefix = "contact-research"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.state = TaskState.NEW
        self.candidates: dict[str, ContactCandidateProposed] = {}
        self.rejected: set[str] = set()

    def start(self, *, employer: str | None, job_id: str | None, at: str) -> None:
        if self.state is not TaskState.NEW:
            raise ContactRuleViolation(f"task {self.id} already started")
        if not employer and not job_id:
            raise ContactRuleViolation("research needs an employer or a job")
        self._record(
            ContactResearchTaskStarted(task_id=self.id, employer=employer, job_id=job_id, started_at=at)
        )

    def propose(self, proposal: ContactCandidateProposed) -> None:
        if self.state is not TaskState.RUNNING:
            raise ContactRuleViolation(f"task {self.id} is {self.state}, not running")
        if proposal.candidate_id in self.candidates:
            return  # the same page proposing the same person again adds nothing
        self._record(proposal)

    def record_source_attempt(self, attempt: ContactResearchSourceAttempted) -> None:
        if self.state is not TaskState.RUNNING:
            raise ContactRuleViolation(f"task {self.id} is {self.state}, not running")
        self._record(attempt)

    def ask_for_review(self, *, at: str) -> None:
        if self.state is not TaskState.RUNNING:
            raise ContactRuleViolation(f"task {self.id} is {self.state}, not running")
        self._record(
            ContactResearchTaskNeedsReview(
                task_id=self.id, candidate_count=len(self.candidates), needs_review_at=at
            )
        )

    def candidate_for_confirmation(self, candidate_id: str) -> ContactCandidateProposed:
        """The candidate, if it may be confirmed now (the Contact stream guards against a second time)."""
        candidate = self._in_review(candidate_id, "confirmed")
        if candidate_id in self.rejected:
            raise ContactRuleViolation(f"candidate {candidate_id} was rejected")
        return candidate

    def reject(self, candidate_id: str, *, reason: str, at: str) -> None:
        """The user turns a proposal down (a confirmed one stays a contact: delete it instead)."""
        self._in_review(candidate_id, "rejected")
        if candidate_id in self.rejected:
            raise ContactRuleViolation(f"candidate {candidate_id} was already rejected")
        self._record(
            ContactCandidateRejected(
                task_id=self.id, candidate_id=candidate_id,
                reason=bounded_code(reason, fallback="not_relevant"), rejected_at=at,
            )
        )  # fmt: skip

    def _in_review(self, candidate_id: str, verb: str) -> ContactCandidateProposed:
        if self.state is not TaskState.NEEDS_REVIEW:
            raise ContactRuleViolation(
                f"task {self.id} is {self.state}; only candidates in review can be {verb}"
            )
        if candidate_id not in self.candidates:
            raise ContactRuleViolation(f"no candidate {candidate_id} in task {self.id}")
        return self.candidates[candidate_id]

    def complete(self, *, confirmed_count: int, at: str) -> None:
        if self.state is not TaskState.NEEDS_REVIEW:
            raise ContactRuleViolation(f"task {self.id} is {self.state}, not in review")
        self._record(
            ContactResearchTaskCompleted(task_id=self.id, confirmed_count=confirmed_count, completed_at=at)
        )

    def fail(self, *, error_class: str, retryable: bool, at: str) -> None:
        if self.state in (TaskState.COMPLETED, TaskState.FAILED):
            return  # the first terminal outcome wins
        self._record(
            ContactResearchTaskFailed(
                task_id=self.id, error_class=bounded_code(error_class), retryable=retryable, failed_at=at
            )
        )

    @applies(ContactResearchTaskStarted)
    def _started(self, _: ContactResearchTaskStarted) -> None:
        self.state = TaskState.RUNNING

    @applies(ContactCandidateProposed)
    def _proposed(self, event: ContactCandidateProposed) -> None:
        self.candidates[event.candidate_id] = event

    @applies(ContactCandidateRejected)
    def _rejected(self, event: ContactCandidateRejected) -> None:
        self.rejected.add(event.candidate_id)

    @applies(ContactResearchSourceAttempted)
    def _attempted(self, _: ContactResearchSourceAttempted) -> None:
        pass  # an audit fact; the task's state does not depend on it

    @applies(ContactResearchTaskNeedsReview)
    def _review(self, _: ContactResearchTaskNeedsReview) -> None:
        self.state = TaskState.NEEDS_REVIEW

    @applies(ContactResearchTaskCompleted)
    def _completed(self, _: ContactResearchTaskCompleted) -> None:
        self.state = TaskState.COMPLETED

    @applies(ContactResearchTaskFailed)
    def _failed(self, _: ContactResearchTaskFailed) -> None:
        self.state = TaskState.FAILED


class Contact(Aggregate):
    stream_prefix = "contact"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.exists = False
        self.deleted = False
        self.attribute_ids: set[str] = set()
        self.sealed_attributes: dict[str, str] = {}  # kind -> sealed value (opened only by the vault)

    def create(self, *, employer: str | None, job_id: str | None, role: ContactRole, at: str) -> None:
        if self.exists:
            raise ContactRuleViolation(f"contact {self.id} already exists")
        self._record(
            ContactCreated(contact_id=self.id, employer=employer, job_id=job_id, role=role, created_at=at)
        )

    def record_attribute(
        self,
        *,
        attribute_id: str,
        kind: str,
        source_kind: ContactSourceKind,
        source_ref: str,
        capture_method: str,
        confidence: float,
        user_confirmed: bool,
        sealed_value: str,
        at: str,
    ) -> None:
        self._require_live()
        if attribute_id in self.attribute_ids:
            return
        self._record(
            ContactAttributeRecorded(
                contact_id=self.id,
                attribute_id=attribute_id,
                attribute_kind=bounded_code(kind, fallback="other"),
                source_kind=source_kind,
                source_ref=source_ref,
                capture_method=capture_method,
                confidence=confidence,
                user_confirmed=user_confirmed,
                recorded_at=at,
                sealed_value=sealed_value,
            )
        )

    def update(self, changed_fields: list[str], *, at: str) -> None:
        self._require_live()
        self._record(ContactUpdated(contact_id=self.id, changed_fields=sorted(changed_fields), updated_at=at))

    def delete(self, *, reason: str, at: str) -> None:
        self._require_live()
        self._record(
            ContactDeleted(
                contact_id=self.id, reason=bounded_code(reason, fallback="user_request"), deleted_at=at
            )
        )

    def require_live(self) -> None:
        """Refuse a contact that was never confirmed or has been deleted."""
        self._require_live()

    def _require_live(self) -> None:
        if not self.exists or self.deleted:
            raise ContactRuleViolation(f"contact {self.id} does not exist")

    @applies(ContactCreated)
    def _created(self, _: ContactCreated) -> None:
        self.exists = True

    @applies(ContactAttributeRecorded)
    def _attribute(self, event: ContactAttributeRecorded) -> None:
        self.attribute_ids.add(event.attribute_id)
        if event.sealed_value is not None:
            self.sealed_attributes[event.attribute_kind] = event.sealed_value

    @applies(ContactUpdated)
    def _updated(self, _: ContactUpdated) -> None:
        pass  # the changed values live in sealed attributes; nothing to track here

    @applies(ContactDeleted)
    def _deleted(self, _: ContactDeleted) -> None:
        self.deleted = True
