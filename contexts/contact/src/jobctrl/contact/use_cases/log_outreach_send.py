"""LogOutreachSend: the user says they sent the approved draft themselves (channel, when).

JobCtrl never sends outreach: this is the user's attestation, accepted only for the approved current
draft and for a time not in the future.
"""

from __future__ import annotations

from datetime import datetime

from jobctrl.contact.use_cases._outreach import code, live_thread, when
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def log_outreach_send(
    svc: ContactServices, thread_id: str, *, channel: str, sent_at: datetime | None = None
) -> None:
    channel = code(channel, "channel")
    sent = when(sent_at or svc.clock.now(), "sent time", not_after=svc.clock.now())
    thread = live_thread(svc, thread_id)
    thread.log_send(channel=channel, sent_at=sent, at=now_iso(svc.clock))
    svc.threads.save(thread)
