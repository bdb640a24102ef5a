"""DraftOutreach: the model writes a message to a confirmed contact, under the truthfulness gate.

The thread is one per contact and job.  The model sees the profile's facts, the contact's title, the
job and the user's points; its message must pass the same fabrication check as materials (every
claim traces to the profile).  A refused message raises ``UnsupportedOutreachClaims`` and writes
nothing (the model call's spend is still recorded, as every call's is).  The text is sealed under the
contact's key, so deleting the contact makes the draft unreadable (ADR 0275).  Nothing is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.contact.adapters.outreach_writer import SYSTEM_PROMPT, TASK, OutreachMessage
from jobctrl.contact.domain.outreach import OutreachThread, thread_id_for
from jobctrl.contact.use_cases._outreach import (
    check_claims,
    contact_values,
    exempt_phrases,
    live_contact,
    message,
    require_gate,
)
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.ids import checked_id
from jobctrl.kernel.text import bound_text
from jobctrl.llm import StructuredRequest

MAX_POINTS = 5


@dataclass(frozen=True)
class DraftedMessage:
    thread_id: str
    draft_id: str
    generation: int
    subject: str
    body: str


def draft_outreach(
    svc: ContactServices,
    contact_id: str,
    *,
    job_id: str | None = None,
    role: str | None = None,
    employer: str | None = None,
    points: tuple[str, ...] = (),
) -> DraftedMessage:
    if svc.llm is None:
        raise ConfigurationError("outreach drafting needs an LLM port")
    gate = require_gate(svc)
    contact = live_contact(svc, contact_id)
    thread_id = thread_id_for(contact_id, checked_id(job_id) if job_id else None)
    thread = svc.threads.load(thread_id) or OutreachThread(thread_id)
    thread.ensure_can_draft()  # before the model is paid for
    values = contact_values(svc, contact)
    asks = [bound_text(p, 300) for p in points[:MAX_POINTS] if p.strip()]
    context: dict[str, object] = {
        "candidateName": gate.candidate_name, "contactName": values.get("name", ""),
        "contactTitle": values.get("title", ""), "role": role or "", "employer": employer or "",
        "points": asks,
    }  # fmt: skip
    prompt = (
        "CANDIDATE PROFILE:\n" + gate.prompt_facts()
        + f"\n\nCONTACT: {values.get('name', '')} ({values.get('title', '')})"
        + f"\nTARGET: {role or ''} at {employer or ''}\nPOINTS THE USER WANTS TO MAKE:\n" + "\n".join(asks)
    )  # fmt: skip
    result = svc.llm.structured(
        StructuredRequest(
            task=TASK, response_model=OutreachMessage, system=SYSTEM_PROMPT, prompt=prompt,
            context=context, max_output_tokens=800, tenant_id=svc.tenant_id,
        )
    )  # fmt: skip
    if svc.spend is not None:
        svc.spend.record(result.usage)
    subject, body = message(result.value.subject, result.value.body)
    check_claims(gate, f"{subject}\n{body}", exempt_phrases(values, role, employer))
    target = {"role": role or "", "employer": employer or ""}  # what a later edit may name too
    sealed = svc.vault.seal(contact_id, {"subject": subject, "body": body, **target}, now=svc.clock.now())
    event = thread.draft(contact_id=contact_id, job_id=job_id, sealed_draft=sealed, at=now_iso(svc.clock))
    svc.threads.save(thread)
    return DraftedMessage(thread_id, event.draft_id, event.generation, subject, body)
