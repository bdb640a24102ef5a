"""Outreach threads for the synthetic log: drafts revised and decided (with late decisions on older
generations), sends logged once or twice, an unapproved send attempt, follow-ups scheduled, completed,
dismissed or rescheduled, replies recorded (one before any send: ignored), a follow-up for a thread
whose draft never arrived, and the threads' contacts with their warm introductions (one contact
deleted, a late warm introduction for it ignored)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from jobctrl.contact.events import (
    ContactCreated,
    ContactDeleted,
    FollowUpCompleted,
    FollowUpDismissed,
    FollowUpScheduled,
    OutreachDraftApproved,
    OutreachDraftGenerated,
    OutreachDraftRejected,
    OutreachDraftRevised,
    OutreachReplyRecorded,
    OutreachSendLogged,
    WarmIntroIdentified,
)
from jobctrl.testing.synthetic._common import Emitted, _Clock


def _thread(rng: random.Random, clock: _Clock, n: int) -> Iterator[Emitted]:
    thread, stream = f"thread-{n}", f"outreach-thread-{n}"
    job = f"job-{n}" if rng.random() < 0.7 else None
    if rng.random() < 0.15:  # a reminder for a thread whose draft is not in the log
        yield FollowUpScheduled(thread, job, clock.tick(rng), "manual", clock.tick(rng)), stream, None, None
        return
    kind = rng.choice(["intro_request", "follow_up"])
    yield (
        OutreachDraftGenerated(thread, f"contact-{n % 7}", job, f"{thread}-d1", 1, kind, clock.tick(rng)),  # type: ignore[arg-type]
        stream, None, None,
    )  # fmt: skip
    generation = 1
    for _ in range(rng.randint(0, 2)):
        generation += 1
        yield (
            OutreachDraftRevised(thread, f"{thread}-d{generation}", generation, clock.tick(rng)),
            stream,
            None,
            None,
        )
    draft = f"{thread}-d{generation}"
    if generation > 1 and rng.random() < 0.5:  # a late decision on an older generation: ignored
        yield OutreachDraftApproved(thread, f"{thread}-d1", 1, clock.tick(rng)), stream, None, None
    if rng.random() < 0.2:
        yield OutreachSendLogged(thread, draft, "email", clock.tick(rng), clock.tick(rng)), stream, None, None
    if rng.random() < 0.3:
        yield OutreachDraftRejected(thread, draft, generation, "tone", clock.tick(rng)), stream, None, None
        return
    yield OutreachDraftApproved(thread, draft, generation, clock.tick(rng)), stream, None, None
    if n % 5 == 1:  # a reply before any send answers nothing: ignored
        yield (
            OutreachReplyRecorded(thread, f"{thread}-r0", "email", clock.tick(rng), clock.tick(rng)),
            stream,
            None,
            None,
        )
    sends = rng.randint(0, 2)
    for _ in range(sends):
        channel = rng.choice(["email", "linkedin_message"])
        yield OutreachSendLogged(thread, draft, channel, clock.tick(rng), clock.tick(rng)), stream, None, None
    for r in range(n % 3 if sends else 0):
        yield (
            OutreachReplyRecorded(thread, f"{thread}-r{r + 1}", "email", clock.tick(rng), clock.tick(rng)),
            stream,
            None,
            None,
        )
    if rng.random() < 0.7:
        yield FollowUpScheduled(thread, job, clock.tick(rng), "no_reply", clock.tick(rng)), stream, None, None
        end = rng.random()
        if end < 0.4:
            yield FollowUpCompleted(thread, clock.tick(rng)), stream, None, None
        elif end < 0.7:
            yield FollowUpDismissed(thread, "replied", clock.tick(rng)), stream, None, None
        elif end < 0.85:  # rescheduled: the later date wins
            yield (
                FollowUpScheduled(thread, job, clock.tick(rng), "snoozed", clock.tick(rng)),
                stream,
                None,
                None,
            )
        yield FollowUpCompleted(thread, clock.tick(rng)), stream, None, None  # a late second close: ignored


def _contacts(rng: random.Random, clock: _Clock) -> Iterator[Emitted]:
    for c in range(7):
        contact, stream = f"contact-{c}", f"contact-contact-{c}"
        yield ContactCreated(contact, "Acme", None, "recruiter", clock.tick(rng)), stream, None, None
        for w in range(c % 3):
            basis = rng.choice(["shared_employer", "shared_school", "mutual_contact"])
            yield (
                WarmIntroIdentified(contact, f"rel-{c}-{w}", basis, 0.5 + w / 10, clock.tick(rng)),
                stream, None, None,
            )  # fmt: skip
        if c == 6:
            yield ContactDeleted(contact, "user_request", clock.tick(rng)), stream, None, None
            yield (
                WarmIntroIdentified(contact, "rel-late", "mutual_contact", 0.9, clock.tick(rng)),
                stream,
                None,
                None,
            )


def _outreach_story(rng: random.Random, clock: _Clock, threads: int) -> Iterator[Emitted]:
    yield from _contacts(rng, clock)
    for n in range(threads):
        yield from _thread(rng, clock, n)
