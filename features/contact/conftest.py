"""Shared steps and fixtures for the contact features: a local careers site and the services."""

from __future__ import annotations

import asyncio
import threading
import urllib.robotparser
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers

from jobctrl.contact.adapters.extraction import OfflineContactExtractor
from jobctrl.contact.adapters.vault import FileKeyStore, PersonalDataVault
from jobctrl.contact.domain.outreach import UnsupportedOutreachClaims
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.ports import FetchedPage, RobotsDisallowedError
from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
from jobctrl.contact.use_cases.run_research import SourceAttempt, run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import NullSpendRecorder
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.composition.profiles import to_document

PAGES = {
    "/robots.txt": "User-agent: *\nDisallow: /private\n",
    "/team": "Our team\nJane Doe — Head of Talent\njane@acme.example\nBob Smith, Engineering Manager\n",
    "/private": "Secret Person — Recruiter\n",
    "/other": "Other Person — Recruiter\n",
}


class CareersSite:
    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.hits[self.path] += 1
                body = PAGES.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "not found").encode())

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RobotsRespectingFetcher:
    """Real HTTP with robots.txt honoured (stands in for the politeness gateway in these scenarios)."""

    def __init__(self, base: str) -> None:
        self.robots = urllib.robotparser.RobotFileParser()
        self.robots.parse(httpx.get(f"{base}/robots.txt", timeout=5).text.splitlines())

    async def fetch(self, url: str) -> FetchedPage:
        if not self.robots.can_fetch("JobCtrl", url):
            raise RobotsDisallowedError(url)
        async with httpx.AsyncClient(timeout=5, follow_redirects=True, max_redirects=5) as client:
            response = await client.get(url)
        return FetchedPage(url=url, status=response.status_code, text=response.text[:40_000])


@pytest.fixture
def site() -> Iterator[CareersSite]:
    s = CareersSite()
    yield s
    s.close()


@pytest.fixture
def same_keys(db_kind: str, tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The API and the command line open the same key directory, home and database as the services."""
    monkeypatch.setenv("JOBCTRL_KEYS_DIR", str(tmp_path / "keys"))
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    return db_kind


@pytest.fixture
def client(db_url: str, svc: ContactServices) -> Iterator[TestClient]:
    with TestClient(
        create_app(ApiConfig(database_url=db_url, clock=svc.clock)), raise_server_exceptions=False
    ) as c:
        yield c


@pytest.fixture
def svc(database: Database, site: CareersSite, tmp_path: Path) -> ContactServices:
    store = EventStore(database, registry())
    store.create_schema()
    vault = PersonalDataVault(database, FileKeyStore(tmp_path / "keys"))
    vault.create_schema()
    return ContactServices(
        store=store,
        vault=vault,
        clock=FixedClock(datetime(2026, 4, 1, tzinfo=UTC)),
        llm=OfflineContactExtractor(),
        spend=NullSpendRecorder(),
        fetcher=RobotsRespectingFetcher(site.base),
    )


@dataclass
class World:
    """What a contact scenario's steps hand on to its later steps (one field per fact a Then reads)."""

    task_id: str = ""  # the research task the user started
    candidates: dict[str, str] = field(default_factory=dict)  # a proposed person's name -> candidate id
    candidate_id: str = ""  # the candidate the user confirmed
    contact_id: str = ""  # the contact that confirmation created
    sealed_name: str | None = None  # the confirmed candidate's sealed data, as the log holds it
    confirmed: int | None = None  # how many contacts finishing the review confirmed
    attempts: dict[str, SourceAttempt] = field(default_factory=dict)  # url -> how research treated it
    url: str = ""  # the one URL research ran on
    other_url: str = ""  # a page of a host the user did not supply
    private_url: str = ""  # a page robots.txt disallows
    listed: dict[str, Any] = field(default_factory=dict)  # the research list the API answered
    api: str = ""  # the base URL of the API serving the dashboard
    stop_api: Callable[[], None] | None = None
    role: str | None = None  # the role and employer an outreach draft is about
    employer: str | None = None
    thread: str = ""  # the outreach thread and its draft
    draft: str = ""
    detail: dict[str, Any] = field(default_factory=dict)  # the thread as the API answered its draft
    refused: UnsupportedOutreachClaims | None = None  # the gate's refusal of a draft
    sentence: str = ""  # the sentence the user's edit added
    note: str = ""  # the note of the reply the user recorded


@pytest.fixture
def world() -> World:
    return World()


def readable_candidates(svc: ContactServices, task_id: str) -> dict[str, str]:
    """The task's candidates by the name their sealed data reads (a forgotten one has none)."""
    candidates = svc.tasks.get(task_id).candidates.items()
    opened = {c: svc.vault.open(c, p.sealed_candidate) or {} for c, p in candidates}
    return {str(data["name"]): c for c, data in opened.items() if data.get("name") is not None}


@given(parsers.parse('a careers site that names "{a}" as Head of Talent and "{b}" as Engineering Manager'))
def careers_site(site: CareersSite) -> None:
    assert "Jane Doe" in PAGES["/team"]


@given(parsers.parse('the user started research task "{task_id}" on employer "{employer}"'))
def started(svc: ContactServices, world: World, task_id: str, employer: str) -> None:
    start_research(svc, task_id, employer=employer, job_id=None)
    world.task_id = task_id


@given(parsers.parse('the candidate profile of "{name}" is saved'))
def profile_saved(svc: ContactServices, name: str) -> None:
    assert SAMPLE_PROFILE["name"] == name
    save_profile(svc.store, to_document(dict(SAMPLE_PROFILE)), clock=svc.clock)


@given(parsers.parse('the research proposed "{name}" and the user confirmed her'))
def confirmed(svc: ContactServices, site: CareersSite, world: World, name: str) -> None:
    urls = [f"{site.base}/team"]
    asyncio.run(
        run_research(svc, "t1", urls, SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True))
    )
    world.candidates = readable_candidates(svc, "t1")
    world.contact_id = confirm_candidate(svc, "t1", world.candidates[name])
