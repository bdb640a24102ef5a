"""Erasure that erases (ADR 0103; issue #18, row 1): after a contact is deleted, no file the project
wrote — the database and its WAL, the key store, the read models, the logs — holds the person's key
or any of their plaintext; on PostgreSQL, neither do the schema's table (and TOAST) files under the
server's data directory nor its WAL.  The person is a random canary, so nothing else can match."""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
import string
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from jobctrl.contact.adapters.extraction import OfflineContactExtractor
from jobctrl.contact.adapters.vault import FileKeyStore, PersonalDataVault, contact_subject_keys
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.ports import FetchedPage
from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
from jobctrl.contact.use_cases.delete_contact import delete_contact
from jobctrl.contact.use_cases.finish_review import finish_review
from jobctrl.contact.use_cases.run_research import run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.runtime.api_seed import project

pytestmark = pytest.mark.both_databases


def _word() -> str:
    return secrets.choice(string.ascii_uppercase) + "".join(
        secrets.choice("bcdfghjklmnpqrstvwxz") for _ in range(9)
    )


class Person:
    def __init__(self) -> None:
        self.name = f"{_word()} {_word()}"
        self.email = f"{self.name.split()[0].lower()}.{secrets.token_hex(4)}@canary.example"


class Site:
    def __init__(self, kept: Person, dropped: Person) -> None:
        page = f"Our team\n{kept.name} \u2014 Head of Talent\n{kept.email}\n"
        page += f"{dropped.name}, Engineering Manager\n{dropped.email}\n"

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = page if self.path == "/team" else "User-agent: *\nAllow: /\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Fetcher:
    async def fetch(self, url: str) -> FetchedPage:
        async with httpx.AsyncClient(timeout=5) as client:
            response = await client.get(url)
        return FetchedPage(url=url, status=response.status_code, text=response.text)


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "jobctrl.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    root = logging.getLogger()
    previous = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
        handler.close()


def _pg_files(db: Database) -> list[Path]:
    """The schema's table, index and TOAST files, and the server's WAL, after a CHECKPOINT."""
    with db.engine.connect() as conn:
        conn.execute(text("COMMIT"))
        conn.execute(text("CHECKPOINT"))
        data = Path(conn.execute(text("SHOW data_directory")).scalar_one())
        rels = conn.execute(
            text(
                "SELECT pg_relation_filepath(c.oid), pg_relation_filepath(NULLIF(c.reltoastrelid, 0)) "
                "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i', 'm')"
            )
        ).all()
    files: list[Path] = []
    for rel in {p for row in rels for p in row if p}:
        files += sorted(data.glob(f"{rel}*"))  # the main fork, its segments, fsm and vm
    files += sorted(p for p in (data / "pg_wal").iterdir() if p.is_file())
    assert len(files) > 10, files
    return files


def _holding(files: list[Path], needles: dict[str, bytes]) -> list[str]:
    found = []
    for path in files:
        try:
            content = path.read_bytes()
        except (FileNotFoundError, PermissionError):
            continue  # a WAL segment recycled while we looked
        found += [f"{label} in {path}" for label, needle in needles.items() if needle in content]
    return found


def test_a_deleted_contact_leaves_no_key_and_no_plaintext_in_any_file(
    tmp_path: Path, database: Database, db_kind: str, log_file: Path
) -> None:
    kept, dropped = Person(), Person()
    site = Site(kept, dropped)
    keys = FileKeyStore(tmp_path / "keys")
    store = EventStore(database, registry())
    store.create_schema()
    vault = PersonalDataVault(database, keys)
    vault.create_schema()
    svc = ContactServices(store=store, vault=vault, clock=FixedClock(datetime(2026, 4, 1, tzinfo=UTC)),
                          llm=OfflineContactExtractor(), fetcher=Fetcher())  # fmt: skip
    try:
        start_research(svc, "t1", employer="Acme", job_id=None)
        urls = [f"{site.base}/team"]
        asyncio.run(
            run_research(
                svc, "t1", urls, SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True)
            )
        )
        task = svc.tasks.get("t1")
        by_name = {
            (vault.open(c, p.sealed_candidate) or {}).get("name"): c for c, p in task.candidates.items()
        }
        assert set(by_name) == {kept.name, dropped.name}
        contact_id = confirm_candidate(svc, "t1", by_name[kept.name])
        assert contact_id == by_name[kept.name]  # a contact keeps its candidate's subject (and key)
        subjects = [contact_id, by_name[dropped.name]]
        secrets_of = {s: keys.get(s) for s in subjects}
        project(database)  # the read models hold what they hold of the person, too
        finish_review(svc, "t1")  # forgets the candidate nobody confirmed
        delete_contact(svc, contact_id)
        project(database)
    finally:
        site.server.shutdown()
        site.server.server_close()
    needles: dict[str, bytes] = {}
    for subject, key in secrets_of.items():
        assert key is not None, subject
        needles[f"key of {subject}"] = key.encode()
        needles[f"raw key of {subject}"] = base64.b64decode(key)
    for person in (kept, dropped):
        needles[f"name {person.name}"] = person.name.encode()
        needles[f"email {person.email}"] = person.email.encode()
    assert all(vault.keys.get(s) is None for s in subjects)
    assert not any((tmp_path / "keys").iterdir())  # every key file overwritten and unlinked
    logging.getLogger("jobctrl.test").debug("erasure test wrote its log")
    ours = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert log_file in ours and (db_kind == "postgres" or any(p.name == "jobctrl.db" for p in ours))
    files = ours + (_pg_files(database) if db_kind == "postgres" else [])
    assert _holding(files, needles) == []


def test_the_search_finds_a_key_that_is_still_there(tmp_path: Path, database: Database) -> None:
    """The search itself can fail: a live subject's key and a sealed-but-readable value are found."""
    keys = FileKeyStore(tmp_path / "keys")
    vault = PersonalDataVault(database, keys)
    vault.create_schema()
    vault.seal("s1", {"name": "x"}, now=datetime(2026, 4, 1, tzinfo=UTC))
    key = keys.get("s1")
    assert key is not None
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert _holding(files, {"key": key.encode()}) == [f"key in {keys.path('s1')}"]


def test_keys_an_older_version_kept_in_the_database_move_to_the_key_store(
    tmp_path: Path, database: Database
) -> None:
    vault = PersonalDataVault(database, FileKeyStore(tmp_path / "keys"))
    database.create_tables(contact_subject_keys.metadata)
    legacy = "A" * 43 + "="
    with database.write() as conn:
        conn.execute(
            contact_subject_keys.insert().values(subject_id="old", cipher_key=legacy, created_at="2026")
        )
    vault.create_schema()
    assert vault.keys.get("old") == legacy
    with database.read() as conn:
        assert conn.execute(contact_subject_keys.select()).one().cipher_key is None
