"""ScheduleOutreachFollowUp: a reminder to follow up on a thread at a time (rescheduling replaces it)."""

from __future__ import annotations

from datetime import datetime

from jobctrl.contact.use_cases._outreach import code, live_thread, when
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def schedule_follow_up(
    svc: ContactServices, thread_id: str, *, due_at: datetime, basis: str = "user_scheduled"
) -> None:
    basis = code(basis, "basis")
    due = when(due_at, "due time")
    thread = live_thread(svc, thread_id)
    thread.schedule_follow_up(due_at=due, basis=basis, at=now_iso(svc.clock))
    svc.threads.save(thread)
