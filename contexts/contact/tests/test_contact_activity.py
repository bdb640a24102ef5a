"""``run_contact_research`` as a Temporal activity (ActivityEnvironment): a user-supplied team page on a
local server, fetched through the politeness gateway, read by the offline extractor, sealed into
review; a host the user did not supply is never fetched."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler

import pytest
from temporalio.testing import ActivityEnvironment

from jobctrl.activity_contracts.contracts import ContactResearchActivityInput
from jobctrl.contact.activities import ContactActivities, register_offline_contact
from jobctrl.contact.adapters.gateway_fetcher import GatewayContactFetcher
from jobctrl.contact.adapters.vault import PersonalDataVault
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import OfflineProvider
from jobctrl.politeness import CONTACT_POLICY, PolitenessGateway, UserAgent
from jobctrl.testing.http_server import serving

CLOCK = FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
TEAM_PAGE = b"""<html><body><h1>Our team</h1>
<p>Grace Hopper - Engineering Manager</p><p>grace@example.org</p>
<script>var ignored = "Alan Turing - Director";</script></body></html>"""


@pytest.fixture
def site() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            body, status = (TEAM_PAGE, 200) if self.path == "/team" else (b"", 404)
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    with serving(Handler) as base:
        yield base, seen


def _activities(store: EventStore, database: Database, clock: FixedClock) -> ContactActivities:
    provider = OfflineProvider()
    register_offline_contact(provider)
    vault = PersonalDataVault(database)
    vault.create_schema()
    policy = CONTACT_POLICY.for_local_servers().replace(min_interval_s=0.0)

    @asynccontextmanager
    async def fetcher():  # type: ignore[no-untyped-def]
        async with PolitenessGateway(UserAgent(contact="mailto:test@example.org")) as gateway:
            yield GatewayContactFetcher(gateway, policy)

    services = ContactServices(store=store, vault=vault, clock=clock, llm=provider)
    return ContactActivities(services, fetcher=fetcher, allow_loopback=True)


@pytest.fixture
def activities(store: EventStore, database: Database) -> ContactActivities:
    return _activities(store, database, CLOCK)


def test_research_activity_proposes_sealed_candidates_from_the_supplied_page_only(
    database: Database, store: EventStore, activities: ContactActivities, site: tuple[str, list[str]]
) -> None:
    base, seen = site
    start_research(ContactServices(store=store, vault=PersonalDataVault(database), clock=CLOCK), "task-1",
                   employer="Hooli", job_id=None)  # fmt: skip
    run: Callable[..., object] = ActivityEnvironment().run
    result = run(
        activities.run_contact_research,
        ContactResearchActivityInput("local", "task-1", "Hooli", None, [f"{base}/team", "http://10.0.0.1/x"]),
    )
    assert result.candidates == 1  # type: ignore[attr-defined]
    proposed = [e for e in store.read_all(limit=1000) if e.event_type == "ContactCandidateProposed"]
    assert len(proposed) == 1
    assert b"grace@example.org" not in proposed[0].payload  # sealed, not in the log in clear
    assert "/team" in seen and all(not p.startswith("/x") for p in seen)


def test_research_activity_writes_under_the_workflows_tenant(
    database: Database, store: EventStore, activities: ContactActivities, site: tuple[str, list[str]]
) -> None:
    base, _ = site
    services = ContactServices(store=store, vault=PersonalDataVault(database), clock=CLOCK, tenant_id="acme")
    start_research(services, "task-2", employer="Hooli", job_id=None)
    run: Callable[..., object] = ActivityEnvironment().run
    run(
        activities.run_contact_research,
        ContactResearchActivityInput("acme", "task-2", "Hooli", None, [f"{base}/team"]),
    )
    written = store.read_all(limit=1000)
    assert {e.event_type for e in written} >= {"ContactResearchTaskStarted", "ContactCandidateProposed"}
    assert {e.tenant_id for e in written} == {"acme"}
