"""ReadOutreachThread: the thread's current draft and replies, opened for the user (a query).

The text is sealed under the contact's key: once the contact is deleted it opens to nothing, so a
deleted person's thread shows no message, no note and no name.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.contact.domain.outreach import OutreachThread, OutreachThreadNotFound
from jobctrl.contact.use_cases.services import ContactServices


@dataclass(frozen=True)
class ReplyText:
    reply_id: str
    channel: str
    received_at: str
    note: str | None


@dataclass(frozen=True)
class ThreadText:
    thread: OutreachThread
    subject: str | None
    body: str | None
    replies: tuple[ReplyText, ...]


def read_outreach(svc: ContactServices, thread_id: str) -> ThreadText:
    thread = svc.threads.load(thread_id)
    if thread is None or thread.contact_id is None:
        raise OutreachThreadNotFound(f"no outreach thread {thread_id}")
    contact = thread.contact_id
    draft = svc.vault.open(contact, thread.sealed_draft) or {}
    replies = tuple(
        ReplyText(
            r.reply_id, r.channel, r.received_at, (svc.vault.open(contact, r.sealed_note) or {}).get("note")
        )
        for r in thread.replies
    )
    return ThreadText(thread, draft.get("subject"), draft.get("body"), replies)
