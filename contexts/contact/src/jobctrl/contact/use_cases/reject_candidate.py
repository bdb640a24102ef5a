"""RejectContactCandidate: the user turns a proposed person down; their sealed data is forgotten.

A rejected proposal never becomes a contact.  Its subject key is tombstoned in the same transaction
that records the rejection and destroyed right after the commit, so the name, title and email in the
log's ``ContactCandidateProposed`` can no longer be opened (ADR 0210).
"""

from __future__ import annotations

from jobctrl.contact.domain.aggregates import ContactRuleViolation
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def reject_candidate(svc: ContactServices, task_id: str, candidate_id: str, *, reason: str) -> None:
    task = svc.tasks.get(task_id)
    if svc.contacts.load(candidate_id) is not None:
        raise ContactRuleViolation(f"candidate {candidate_id} is already a contact; delete the contact")
    task.reject(candidate_id, reason=reason, at=now_iso(svc.clock))
    with svc.store.transaction() as tx:
        svc.tasks.save(task, tx=tx)
        svc.vault.forget(candidate_id, now=svc.clock.now(), conn=tx.conn)
    svc.vault.shred(candidate_id)
