"""ApproveOutreach: the user approves the exact draft version they read (id and generation)."""

from __future__ import annotations

from jobctrl.contact.use_cases._outreach import live_thread
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def approve_outreach(svc: ContactServices, thread_id: str, *, draft_id: str, generation: int) -> None:
    thread = live_thread(svc, thread_id)
    thread.approve(draft_id=draft_id, generation=generation, at=now_iso(svc.clock))
    svc.threads.save(thread)
