"""RecordOutreachReply: the user records by hand that the contact answered; an optional note of what
they said is sealed under the contact's key."""

from __future__ import annotations

from datetime import datetime

from jobctrl.contact.use_cases._outreach import MAX_BODY, code, live_thread, when
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def record_outreach_reply(
    svc: ContactServices,
    thread_id: str,
    *,
    channel: str,
    received_at: datetime | None = None,
    note: str | None = None,
) -> str:
    channel = code(channel, "channel")
    received = when(received_at or svc.clock.now(), "reply time", not_after=svc.clock.now())
    thread = live_thread(svc, thread_id)
    thread.ensure_can_reply()
    assert thread.contact_id is not None
    sealed = (
        svc.vault.seal(thread.contact_id, {"note": note.strip()[:MAX_BODY]}, now=svc.clock.now())
        if note and note.strip()
        else None
    )
    reply_id = thread.record_reply(
        channel=channel, received_at=received, sealed_note=sealed, at=now_iso(svc.clock)
    )
    svc.threads.save(thread)
    return reply_id
