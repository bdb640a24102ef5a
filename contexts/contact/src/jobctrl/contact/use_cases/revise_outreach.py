"""ReviseOutreach: the user edits the draft by hand; the edit is a new generation, back in review.

The edited text passes the same truthfulness gate as a generated one (a refused edit writes nothing)
and is sealed under the contact's key.  The draft's target role and employer (sealed with it) stay
exempt, so an edit may still name the job it is about.  An approval of the previous generation no
longer applies.
"""

from __future__ import annotations

from jobctrl.contact.use_cases._outreach import (
    check_claims,
    contact_values,
    exempt_phrases,
    live_contact,
    live_thread,
    message,
    require_gate,
)
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def revise_outreach(
    svc: ContactServices,
    thread_id: str,
    *,
    subject: str,
    body: str,
) -> int:
    """Record the edit; returns the new generation."""
    gate = require_gate(svc)
    thread = live_thread(svc, thread_id)
    thread.ensure_can_revise()
    assert thread.contact_id is not None
    subject, body = message(subject, body)
    values = contact_values(svc, live_contact(svc, thread.contact_id))
    current = svc.vault.open(thread.contact_id, thread.sealed_draft) or {}
    target = {k: str(current.get(k) or "") for k in ("role", "employer")}
    check_claims(gate, f"{subject}\n{body}", exempt_phrases(values, target["role"], target["employer"]))
    sealed = svc.vault.seal(
        thread.contact_id, {"subject": subject, "body": body, **target}, now=svc.clock.now()
    )
    event = thread.revise(sealed_draft=sealed, at=now_iso(svc.clock))
    svc.threads.save(thread)
    return event.generation
