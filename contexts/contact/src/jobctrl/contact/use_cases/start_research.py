"""StartContactResearch: the user asks for research on an employer or a job (never automatic)."""

from __future__ import annotations

from jobctrl.contact.domain.aggregates import ContactResearchTask
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.ids import checked_id


def start_research(svc: ContactServices, task_id: str, *, employer: str | None, job_id: str | None) -> None:
    task = ContactResearchTask(checked_id(task_id))
    task.start(employer=employer, job_id=job_id, at=now_iso(svc.clock))
    svc.tasks.save(task)
