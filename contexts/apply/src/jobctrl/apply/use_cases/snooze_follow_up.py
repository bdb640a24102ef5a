"""Snooze an application's follow-up: ``ApplicationFollowUpSnoozed`` (ADR 0213).

The reminder of an application falls due a configured number of days after applying, while no
outcome settled it.  The user can put it off to a date in the next year; it is then not due before
that date (the later of the two).  The latest snooze wins, so a snooze can also be shortened.  A job
not applied to, or already settled, has no follow-up to snooze (``follow_up_not_pending``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from jobctrl.apply.domain.errors import FollowUpNotPending, InvalidSnooze
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.clock import Clock, SystemClock, isoformat, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore

MAX_SNOOZE = timedelta(days=366)


def snooze_follow_up(
    store: EventStore,
    *,
    job_id: str,
    until: datetime,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> str:
    """Record the snooze; returns ``until`` as stored.  Nothing is written when it is refused."""
    now = (clock or SystemClock()).now()
    if until.tzinfo is None:
        raise InvalidSnooze("the snooze date needs a time zone")
    if not now < until <= now + MAX_SNOOZE:
        raise InvalidSnooze("a follow-up can be snoozed to a time in the next 366 days only")
    repo = jobs(store, clock, tenant_id)
    app = repo.load(job_id)
    if app is None:
        raise FollowUpNotPending(f"job {job_id!r} has not been applied to")
    stored = isoformat(until)
    app.snooze_follow_up(until=stored, at=now_iso(clock))
    repo.save(app, **owner.metadata())
    return stored
