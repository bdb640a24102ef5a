"""What the outreach commands share: a live thread, its contact's sealed values, the gate's check."""

from __future__ import annotations

import re
from datetime import datetime

from jobctrl.contact.domain.aggregates import Contact, ContactRuleViolation
from jobctrl.contact.domain.outreach import (
    InvalidOutreachInput,
    OutreachThread,
    OutreachThreadNotFound,
    UnsupportedOutreachClaims,
)
from jobctrl.contact.ports import TruthfulnessGate
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.text import bound_text

_CODE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_SUBJECT = 200
MAX_BODY = 4000


def live_contact(svc: ContactServices, contact_id: str) -> Contact:
    contact = svc.contacts.load(contact_id)
    if contact is None or not contact.exists or contact.deleted:
        raise ContactRuleViolation(f"contact {contact_id} does not exist")
    return contact


def live_thread(svc: ContactServices, thread_id: str) -> OutreachThread:
    """The thread, if it exists and its contact was not deleted (a deleted person's thread is closed)."""
    thread = svc.threads.load(thread_id)
    if thread is None or thread.contact_id is None:
        raise OutreachThreadNotFound(f"no outreach thread {thread_id}")
    live_contact(svc, thread.contact_id)
    return thread


def contact_values(svc: ContactServices, contact: Contact) -> dict[str, str]:
    values: dict[str, str] = {}
    for kind, sealed in contact.sealed_attributes.items():
        opened = svc.vault.open(contact.id, sealed) or {}
        if isinstance(opened.get("value"), str):
            values[kind] = opened["value"]
    return values


def code(value: str, what: str) -> str:
    if not _CODE.fullmatch(value):
        raise InvalidOutreachInput(f"{what} must be a lower-case code (a-z, 0-9, _), got {value[:40]!r}")
    return value


def when(value: datetime, what: str, *, not_after: datetime | None = None) -> str:
    if value.tzinfo is None:
        raise InvalidOutreachInput(f"{what} needs a time zone")
    if not_after is not None and value > not_after:
        raise InvalidOutreachInput(f"{what} is in the future")
    return isoformat(value)


def message(subject: str, body: str) -> tuple[str, str]:
    subject, body = bound_text(subject, MAX_SUBJECT), body.strip()
    if not subject or not body or len(body) > MAX_BODY:
        raise InvalidOutreachInput(f"a message needs a subject and a body of at most {MAX_BODY} characters")
    return subject, body


def require_gate(svc: ContactServices) -> TruthfulnessGate:
    if svc.gate is None:
        raise ConfigurationError("outreach drafting needs the candidate profile (no truthfulness gate)")
    return svc.gate


def check_claims(gate: TruthfulnessGate, text: str, exempt: list[str]) -> None:
    """Refuse a message with any claim the profile does not support (before anything is written)."""
    unsupported = gate.unsupported(text, exempt=exempt)
    if unsupported:
        raise UnsupportedOutreachClaims(unsupported)


def exempt_phrases(values: dict[str, str], *extra: str | None) -> list[str]:
    """The contact's own name and title, the target role and employer: not claims about the candidate."""
    phrases = [values.get("name"), values.get("title"), *extra]
    names = [w for w in (values.get("name") or "").split() if len(w) > 1]  # "Hi Jane,"
    return sorted({p for p in [*phrases, *names] if p})
