"""DismissOutreachFollowUp: the user drops the reminder, with a reason code."""

from __future__ import annotations

from jobctrl.contact.use_cases._outreach import code, live_thread
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def dismiss_follow_up(svc: ContactServices, thread_id: str, *, reason: str = "not_needed") -> None:
    reason = code(reason, "reason")
    thread = live_thread(svc, thread_id)
    thread.dismiss_follow_up(reason=reason, at=now_iso(svc.clock))
    svc.threads.save(thread)
