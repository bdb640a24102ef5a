"""The Apply features' world: one event store per scenario, the claim policy and job facts it
starts from, and the stand-ins at the system edge (a scripted browser, artifacts, SMTP senders)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.domain.facts import ApplicantProfile, ApplicationMaterials, ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.apply.ports import BrowserApplyPort, BrowserApplyRequest, BrowserOutcome, OutgoingEmail
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.record_review_decision import ReviewDecisionCommand, record_review_decision
from jobctrl.apply.use_cases.run_apply import ApplyRunResult, run_apply
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore

PROFILE = ApplicantProfile(full_name="Ada Lovelace", email="ada@example.org", phone="+1 555 0100")


@dataclass
class Inbox:
    messages: list[Any] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd hook)
        self.messages.append(envelope)
        return "250 OK"


class PortZeroController(Controller):
    """aiosmtpd's controller bound to port 0 by the server itself; the port is read back once it
    listens (no bind-then-release probe that another process could race)."""

    def _trigger_server(self) -> None:
        assert isinstance(self.server, asyncio.Server)  # what loop.create_server returned; it has sockets
        self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]


class FakeBrowser:
    """Stands in for the browser where a feature is about the rules, not the page."""

    def __init__(self, outcome: BrowserOutcome) -> None:
        self.outcome = outcome
        self.calls = 0

    def fill_application(self, request: BrowserApplyRequest) -> BrowserOutcome:
        self.calls += 1
        return self.outcome


class Artifacts:
    def read(self, artifact_id: str) -> bytes:
        return b"%PDF-1.4 " + artifact_id.encode()


class ObservingSender:
    """Wraps the real SMTP sender and notes whether the intent was durable when the send began."""

    def __init__(self, inner: SmtpEmailSender, store: EventStore) -> None:
        self.inner, self.store = inner, store
        self.calls = 0
        self.intent_was_committed: list[bool] = []

    def send(self, message: OutgoingEmail) -> None:
        self.calls += 1
        types = [e.event_type for e in self.store.read_all(limit=10_000)]
        self.intent_was_committed.append("ApplySubmitIntended" in types)
        self.inner.send(message)


class FailingSender:
    def __init__(self) -> None:
        self.calls = 0

    def send(self, message: OutgoingEmail) -> None:
        self.calls += 1
        raise ConnectionResetError("connection lost after DATA")


@dataclass
class World:
    store: EventStore
    resume: Path
    facts: dict[str, CurrentJobFacts] = field(default_factory=dict)
    policy: ClaimPolicy = field(default_factory=ClaimPolicy)
    clock: FixedClock = field(default_factory=lambda: FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC)))
    runs: dict[str, str] = field(default_factory=dict)  # job -> last run id
    counter: int = 0
    error: JobCtrlError | None = None
    result: Any = None
    sender: Any = None

    def next_run(self, job: str) -> str:
        self.counter += 1
        self.runs[job] = f"run-{self.counter}"
        return self.runs[job]

    def app(self, job: str) -> JobApplication:
        return jobs(self.store, self.clock).get(job)

    def attempt(self, action: Any) -> None:
        self.error = None
        try:
            self.result = action()
        except JobCtrlError as exc:
            self.error = exc

    def types(self) -> list[str]:
        return [e.event_type for e in self.store.read_all(limit=10_000)]

    def claim(
        self,
        job: str,
        run: str,
        *,
        dry_run: bool,
        worker_id: str = "w1",
        email: bool = False,
        batch: bool = False,
    ) -> Any:
        """Claim an apply run of ``job`` the way every scenario does (by email, in a batch, or neither)."""
        return claim_apply(
            self.store,
            self.facts[job],
            self.policy,
            run_id=run,
            worker_id=worker_id,
            model="none",
            dry_run=dry_run,
            clock=self.clock,
            email=email,
            batch=batch,
        )


def _materials(w: World, job: str) -> ApplicationMaterials:
    gen = w.facts[job].materials_generation or 1
    return ApplicationMaterials(generation=gen, resume_pdf_path=str(w.resume), cover_letter_text="Dear team")


def _run(world: World, job: str, run: str, browser: BrowserApplyPort) -> ApplyRunResult:
    """The production ``run_apply`` of a claimed run, with the world's facts, policy and materials."""
    return run_apply(
        world.store, job_id=job, run_id=run, facts=world.facts[job], policy=world.policy, profile=PROFILE,
        materials=_materials(world, job), browser=browser, clock=world.clock,
    )  # fmt: skip


def _dry_run(world: World, job: str, outcome: BrowserOutcome) -> None:
    run = world.next_run(job)
    world.claim(job, run, dry_run=True)
    _run(world, job, run, FakeBrowser(outcome))


def _approve(world: World, job: str, **extra: Any) -> None:
    f = world.facts[job]
    command = ReviewDecisionCommand(
        job_id=job,
        decision="approve_submit",
        materials_generation=f.materials_generation,
        profile_version=f.profile_version,
        application_url=f.application_url,
        **extra,
    )
    record_review_decision(world.store, command, f, clock=world.clock)
