"""FinishContactReview: close a research task and forget the people the user did not confirm.

Unconfirmed candidates were only ever proposals; keeping their sealed data readable after the review
would keep personal data nobody chose to keep.  Their keys are forgotten in the same transaction that
records the completion.
"""

from __future__ import annotations

from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def finish_review(svc: ContactServices, task_id: str) -> int:
    task = svc.tasks.get(task_id)
    confirmed = {cid for cid in task.candidates if svc.contacts.load(cid) is not None}
    task.complete(confirmed_count=len(confirmed), at=now_iso(svc.clock))
    forgotten = sorted(set(task.candidates) - confirmed)
    with svc.store.transaction() as tx:
        svc.tasks.save(task, tx=tx)
        for candidate_id in forgotten:
            svc.vault.forget(candidate_id, now=svc.clock.now(), conn=tx.conn)
    svc.vault.shred(*forgotten)  # their keys go once the completion is committed (ADR 0103)
    return len(confirmed)
