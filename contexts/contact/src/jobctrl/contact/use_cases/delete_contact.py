"""DeleteContact: record the deletion and the subject's tombstone in one transaction, then destroy
the key.

After this returns, every sealed value of the person — in the log and in anything rebuilt from it —
is unreadable.  The tombstone commits with the deletion, so there is never a deleted contact whose
data the vault would open; the key file goes right after the commit (and, should the process die in
between, at the vault's next start, ADR 0103).
"""

from __future__ import annotations

from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso


def delete_contact(svc: ContactServices, contact_id: str, *, reason: str = "user_request") -> None:
    contact = svc.contacts.get(contact_id)
    contact.delete(reason=reason, at=now_iso(svc.clock))
    with svc.store.transaction() as tx:
        svc.contacts.save(contact, tx=tx)
        svc.vault.forget(contact_id, now=svc.clock.now(), conn=tx.conn)
    svc.vault.shred(contact_id)  # the key itself goes once the deletion is committed (ADR 0103)
