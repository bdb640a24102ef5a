"""Per-subject keys for personal data, and forgetting them (crypto-shredding; ADR 0103).

Every data subject (a contact, or a research candidate before confirmation) has its own AES-256 key.
Personal values are sealed with it before they enter an event, so the append-only log never holds
them in clear.  ``forget`` destroys the key: from then on every sealed value of that subject — in the
log, in backups of the log, in rebuilt read models — is unreadable.

The keys never enter the database: a database cannot promise that a deleted row is gone (SQLite's WAL
and free pages, PostgreSQL's dead tuples and WAL kept the keys of deleted people, issue #18).  They
live in a key store outside it, by default one file per subject under ``$JOBCTRL_HOME/keys``
(``JOBCTRL_KEYS_DIR`` overrides), which ``forget`` overwrites, syncs and unlinks.  The database keeps
only ``contact_subject_keys`` tombstones: which subjects exist and which were forgotten (no key).

Sealing is deterministic for a given key and plaintext (the GCM nonce is an HMAC of the plaintext),
so a retried command produces byte-identical events and the store's idempotent replay applies.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import msgspec
from eventsourcing.cipher import AESCipher
from eventsourcing.utils import Environment
from sqlalchemy import Column, MetaData, String, Table, Text, select
from sqlalchemy.engine import Connection

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.kernel.store.database import jobctrl_home

metadata = MetaData()
contact_subject_keys = Table(
    "contact_subject_keys",
    metadata,
    Column("subject_id", String(200), primary_key=True),
    Column("cipher_key", Text, nullable=True),  # always NULL: keys live in the key store (ADR 0103)
    Column("created_at", String(40), nullable=False),
    Column("forgotten_at", String(40), nullable=True),
)


class SubjectKeyStore(Protocol):
    """Where subject keys live; ``destroy`` must leave nothing the store wrote that holds the key."""

    def get(self, subject_id: str) -> str | None: ...

    def create(self, subject_id: str) -> str: ...

    def destroy(self, subject_id: str) -> None: ...


class FileKeyStore:
    """One ``0600`` file per subject (named by the SHA-256 of its id) in a ``0700`` directory.

    ``create`` writes a temporary file, syncs it and links it into place (``O_EXCL``: of two racing
    creators, the second reads the first's key).  ``destroy`` overwrites the file with random bytes,
    syncs, unlinks and syncs the directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, subject_id: str) -> Path:
        return self.directory / f"{hashlib.sha256(subject_id.encode()).hexdigest()}.key"

    def get(self, subject_id: str) -> str | None:
        try:
            return self.path(subject_id).read_text(encoding="ascii").strip() or None
        except FileNotFoundError:
            return None

    def create(self, subject_id: str) -> str:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = self.path(subject_id)
        key = AESCipher.create_key(32)
        tmp = target.with_suffix(f".{secrets.token_hex(8)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, key.encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, target)  # fails if another creator won the race
        except FileExistsError:
            self._shred(tmp)
            existing = self.get(subject_id)
            assert existing is not None
            return existing
        tmp.unlink()
        self._sync_directory()
        return key

    def destroy(self, subject_id: str) -> None:
        if self._shred(self.path(subject_id)):
            self._sync_directory()

    def _shred(self, path: Path) -> bool:
        try:
            fd = os.open(path, os.O_WRONLY)
        except FileNotFoundError:
            return False
        try:
            size = os.fstat(fd).st_size
            os.write(fd, secrets.token_bytes(max(size, 64)))
            os.fsync(fd)
        finally:
            os.close(fd)
        path.unlink(missing_ok=True)
        return True

    def _sync_directory(self) -> None:
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def default_key_store(db: Database) -> FileKeyStore:
    """``JOBCTRL_KEYS_DIR``, else ``keys`` beside a SQLite database, else ``$JOBCTRL_HOME/keys``.

    Every process that reads or seals personal data must see the same directory: a scale-out
    deployment points ``JOBCTRL_KEYS_DIR`` at storage they share."""
    configured = os.environ.get("JOBCTRL_KEYS_DIR")
    if configured:
        return FileKeyStore(Path(configured))
    if db.identity.path is not None:
        return FileKeyStore(db.identity.path.parent / "keys")
    return FileKeyStore(jobctrl_home() / "keys")


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
    def __init__(self, db: Database, keys: SubjectKeyStore | None = None) -> None:
        self.db = db
        self.keys: SubjectKeyStore = keys if keys is not None else default_key_store(db)

    def create_schema(self) -> None:
        """Create the tombstone table, move any key an older version kept in it to the key store,
        and destroy the stored key of every forgotten subject (a crash between a forget's commit and
        its shred leaves one)."""
        self.db.create_tables(metadata)
        with self.db.read() as conn:
            legacy = conn.execute(
                select(contact_subject_keys.c.subject_id, contact_subject_keys.c.cipher_key).where(
                    contact_subject_keys.c.cipher_key.is_not(None)
                )
            ).all()
        for subject_id, key in legacy:
            self._adopt(subject_id, key)
        if legacy:
            with self.db.write() as conn:
                conn.execute(contact_subject_keys.update().values(cipher_key=None))
            self.db.scrub()
        self.shred_forgotten()

    def _adopt(self, subject_id: str, key: str) -> None:
        if self.keys.get(subject_id) is not None:
            return
        if isinstance(self.keys, FileKeyStore):
            store = self.keys
            store.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(store.path(subject_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, key.encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)

    def _state(self, conn: Connection, subject_id: str) -> tuple[bool, bool]:
        """``(known, forgotten)`` for the subject."""
        row = conn.execute(
            select(contact_subject_keys.c.forgotten_at).where(contact_subject_keys.c.subject_id == subject_id)
        ).first()
        return (row is not None, row is not None and row[0] is not None)

    def seal(self, subject_id: str, values: dict[str, Any], *, now: datetime) -> str:
        """Seal ``values`` under the subject's key (created on first use); refuses a forgotten subject."""
        with self.db.write() as conn:
            known, forgotten = self._state(conn, subject_id)
            if forgotten:
                raise SubjectForgotten(f"subject {subject_id} was forgotten")
            if not known:
                conn.execute(
                    contact_subject_keys.insert().values(
                        subject_id=subject_id, cipher_key=None, created_at=isoformat(now)
                    )
                )
            # Inside the write transaction: a concurrent forget waits for it, then destroys this key.
            key = self.keys.get(subject_id) or self.keys.create(subject_id)
        ciphertext = _DeterministicAES(key).encrypt(msgspec.json.encode(values))
        return base64.b64encode(ciphertext).decode()

    def open(self, subject_id: str, sealed: str | None) -> dict[str, Any] | None:
        """The sealed values, or ``None`` when there are none or the subject was forgotten."""
        if sealed is None:
            return None
        with self.db.read() as conn:
            _, forgotten = self._state(conn, subject_id)
        if forgotten:
            self.keys.destroy(subject_id)  # a shred a crash interrupted
            return None
        key = self.keys.get(subject_id)
        if key is None:
            return None
        values: dict[str, Any] = msgspec.json.decode(_DeterministicAES(key).decrypt(base64.b64decode(sealed)))
        return values

    def forget(self, subject_id: str, *, now: datetime, conn: Connection | None = None) -> None:
        """Record the subject as forgotten (idempotent).  With ``conn`` (the caller's transaction), the
        caller calls ``shred`` after its commit; without, the key is destroyed here."""

        def run(c: Connection) -> None:
            known, _ = self._state(c, subject_id)
            if known:
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
            self.shred(subject_id)

    def shred(self, *subject_ids: str) -> None:
        """Destroy the stored keys of forgotten subjects, after the forget committed."""
        for subject_id in subject_ids:
            self.keys.destroy(subject_id)

    def shred_forgotten(self) -> None:
        with self.db.read() as conn:
            forgotten = conn.execute(
                select(contact_subject_keys.c.subject_id).where(
                    contact_subject_keys.c.forgotten_at.is_not(None)
                )
            ).scalars()
            subjects = list(forgotten)
        self.shred(*subjects)
