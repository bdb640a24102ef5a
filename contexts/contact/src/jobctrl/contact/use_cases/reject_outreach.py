"""RejectOutreach: the user turns the draft version under review down, with a reason code."""

from __future__ import annotations

from jobctrl.contact.use_cases._outreach import code, live_thread
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def reject_outreach(
    svc: ContactServices, thread_id: str, *, draft_id: str, generation: int, reason: str
) -> None:
    reason = code(reason, "reason")
    thread = live_thread(svc, thread_id)
    thread.reject(draft_id=draft_id, generation=generation, reason=reason, at=now_iso(svc.clock))
    svc.threads.save(thread)
