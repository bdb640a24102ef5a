"""ConfirmContactCandidate: the only way a proposed person becomes a contact.

The contact takes the candidate's subject id, so its sealed values stay readable under the same key
and a second confirmation of the same candidate fails on the Contact stream (it already exists).
"""

from __future__ import annotations

from jobctrl.contact.domain.aggregates import Contact, ContactRuleViolation
from jobctrl.contact.events import ContactRole
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.aggregate import save_all
from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.ids import deterministic_id

_ROLES: tuple[ContactRole, ...] = ("recruiter", "hiring_manager", "referrer", "warm_intro", "other")


def confirm_candidate(svc: ContactServices, task_id: str, candidate_id: str) -> str:
    task = svc.tasks.get(task_id)
    candidate = task.candidate_for_confirmation(candidate_id)
    if svc.contacts.load(candidate_id) is not None:
        raise ContactRuleViolation(f"candidate {candidate_id} is already a contact")
    values = svc.vault.open(candidate_id, candidate.sealed_candidate) or {}
    contact = Contact(candidate_id)
    role: ContactRole = next((r for r in _ROLES if r == candidate.role), "other")
    contact.create(employer=None, job_id=None, role=role, at=now_iso(svc.clock))
    for kind in ("name", "title", "email", "profileUrl"):
        value = values.get(kind)
        if not value:
            continue
        contact.record_attribute(
            attribute_id=deterministic_id("contact-attribute", candidate_id, kind),
            kind=kind.lower(),
            source_kind="public_web_page",
            source_ref=candidate.source_ref,
            capture_method=candidate.capture_method,
            confidence=candidate.confidence,
            user_confirmed=True,
            sealed_value=svc.vault.seal(candidate_id, {"value": value}, now=svc.clock.now()),
            at=now_iso(svc.clock),
        )
    save_all(svc.store, [(svc.contacts, contact)])
    return contact.id
