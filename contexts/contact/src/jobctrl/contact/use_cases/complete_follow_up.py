"""CompleteOutreachFollowUp: the user followed up; the reminder is no longer due."""

from __future__ import annotations

from jobctrl.contact.use_cases._outreach import live_thread
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def complete_follow_up(svc: ContactServices, thread_id: str) -> None:
    thread = live_thread(svc, thread_id)
    thread.complete_follow_up(at=now_iso(svc.clock))
    svc.threads.save(thread)
