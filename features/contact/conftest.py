"""Shared steps and fixtures for the contact features: a local careers site and the services."""

from __future__ import annotations

import asyncio
import threading
import urllib.robotparser
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_bdd import given, parsers

from jobctrl.contact.adapters.extraction import OfflineContactExtractor
from jobctrl.contact.adapters.vault import FileKeyStore, PersonalDataVault
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.ports import FetchedPage, RobotsDisallowedError
from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
from jobctrl.contact.use_cases.run_research import run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import NullSpendRecorder
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import ProfileService
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


@pytest.fixture
def ctx() -> dict[str, Any]:
    return {}


@given(parsers.parse('a careers site that names "{a}" as Head of Talent and "{b}" as Engineering Manager'))
def careers_site(site: CareersSite) -> None:
    assert "Jane Doe" in PAGES["/team"]


@given(parsers.parse('the user started research task "{task_id}" on employer "{employer}"'))
def started(svc: ContactServices, ctx: dict[str, Any], task_id: str, employer: str) -> None:
    start_research(svc, task_id, employer=employer, job_id=None)
    ctx["task_id"] = task_id


@given(parsers.parse('the candidate profile of "{name}" is saved'))
def profile_saved(svc: ContactServices, name: str) -> None:
    assert SAMPLE_PROFILE["name"] == name
    ProfileService(svc.store, clock=svc.clock).save_profile(to_document(dict(SAMPLE_PROFILE)))


@given(parsers.parse('the research proposed "{name}" and the user confirmed her'))
def confirmed(svc: ContactServices, site: CareersSite, ctx: dict[str, Any], name: str) -> None:
    urls = [f"{site.base}/team"]
    asyncio.run(
        run_research(svc, "t1", urls, SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True))
    )
    task = svc.tasks.get("t1")
    ids = {(svc.vault.open(c, p.sealed_candidate) or {}).get("name"): c for c, p in task.candidates.items()}
    ctx["contacts"] = ids
    ctx["contact"] = confirm_candidate(svc, "t1", ids[name])
