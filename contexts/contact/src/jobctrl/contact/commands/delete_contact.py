"""DeleteContact: record the deletion and forget the subject's key in one transaction.

After this commits, every sealed value of the person — in the log and in anything rebuilt from it —
is unreadable.  Doing both in one transaction means there is never a deleted contact whose data is
still readable, nor a forgotten key for a contact that still exists.
"""

from __future__ import annotations

from jobctrl.contact.commands.services import ContactServices


def delete_contact(svc: ContactServices, contact_id: str, *, reason: str = "user_request") -> None:
    contact = svc.contacts.get(contact_id)
    contact.delete(reason=reason, at=svc.now_iso())
    with svc.store.transaction() as tx:
        svc.contacts.save(contact, tx=tx)
        svc.vault.forget(contact_id, now=svc.clock.now(), conn=tx.conn)
