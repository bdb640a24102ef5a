"""Per-subject keys for personal data, and forgetting them (crypto-shredding).

Every data subject (a contact, or a research candidate before confirmation) has its own AES-256 key
in ``contact_subject_keys``.  Personal values are sealed with it before they enter an event, so the
append-only log never holds them in clear.  ``forget`` deletes the key: from then on every sealed
value of that subject — in the log, in backups of the log, in rebuilt read models — is unreadable.

Sealing is deterministic for a given key and plaintext (the GCM nonce is an HMAC of the plaintext),
so a retried command produces byte-identical events and the store's idempotent replay applies.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime
from typing import Any

import msgspec
from eventsourcing.cipher import AESCipher
from eventsourcing.utils import Environment
from sqlalchemy import Column, MetaData, String, Table, Text, select
from sqlalchemy.engine import Connection

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database

metadata = MetaData()
contact_subject_keys = Table(
    "contact_subject_keys",
    metadata,
    Column("subject_id", String(200), primary_key=True),
    Column("cipher_key", Text, nullable=True),  # NULL once forgotten
    Column("created_at", String(40), nullable=False),
    Column("forgotten_at", String(40), nullable=True),
)


class SubjectForgotten(JobCtrlError):
    code = "subject_forgotten"
    retryable = False


class _DeterministicAES(AESCipher):
    """AES-GCM whose nonce is derived from key and plaintext (same input, same ciphertext)."""

    def __init__(self, key_b64: str) -> None:
        super().__init__(Environment(env={AESCipher.CIPHER_KEY: key_b64}))

    def encrypt(self, plaintext: bytes) -> bytes:
        nonce = hmac.new(self.key, plaintext, hashlib.sha256).digest()[:12]
        encrypted, tag = self.construct_cipher(nonce).encrypt_and_digest(plaintext)
        return nonce + tag + encrypted


class PersonalDataVault:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create_schema(self) -> None:
        self.db.create_tables(metadata)

    def _key(self, conn: Connection, subject_id: str) -> tuple[bool, str | None]:
        row = conn.execute(
            select(contact_subject_keys.c.cipher_key).where(contact_subject_keys.c.subject_id == subject_id)
        ).first()
        return (row is not None, row[0] if row is not None else None)

    def seal(self, subject_id: str, values: dict[str, Any], *, now: datetime) -> str:
        """Seal ``values`` under the subject's key (created on first use); refuses a forgotten subject."""
        with self.db.write() as conn:
            exists, key = self._key(conn, subject_id)
            if exists and key is None:
                raise SubjectForgotten(f"subject {subject_id} was forgotten")
            if key is None:
                key = AESCipher.create_key(32)
                conn.execute(
                    contact_subject_keys.insert().values(
                        subject_id=subject_id, cipher_key=key, created_at=isoformat(now)
                    )
                )
        ciphertext = _DeterministicAES(key).encrypt(msgspec.json.encode(values))
        return base64.b64encode(ciphertext).decode()

    def open(self, subject_id: str, sealed: str | None) -> dict[str, Any] | None:
        """The sealed values, or ``None`` when there are none or the subject was forgotten."""
        if sealed is None:
            return None
        with self.db.read() as conn:
            _, key = self._key(conn, subject_id)
        if key is None:
            return None
        values: dict[str, Any] = msgspec.json.decode(_DeterministicAES(key).decrypt(base64.b64decode(sealed)))
        return values

    def forget(self, subject_id: str, *, now: datetime, conn: Connection | None = None) -> None:
        """Destroy the subject's key (idempotent)."""

        def run(c: Connection) -> None:
            exists, _ = self._key(c, subject_id)
            if exists:
                c.execute(
                    contact_subject_keys.update()
                    .where(contact_subject_keys.c.subject_id == subject_id)
                    .values(cipher_key=None, forgotten_at=isoformat(now))
                )
            else:
                c.execute(
                    contact_subject_keys.insert().values(
                        subject_id=subject_id,
                        cipher_key=None,
                        created_at=isoformat(now),
                        forgotten_at=isoformat(now),
                    )
                )

        if conn is not None:
            run(conn)
        else:
            with self.db.write() as c:
                run(c)
