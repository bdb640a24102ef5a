"""Shared steps and fixtures of the Apply features (one Chromium and one job site per session)."""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes
from email import policy as email_policy
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from pytest_bdd import given, parsers, then, when

from jobctrl.apply.adapters.browser import PlaywrightBrowserApply, launch_chromium
from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.domain.approval import read_approval
from jobctrl.apply.domain.errors import ApprovalRefused, ClaimRefused
from jobctrl.apply.domain.facts import ApplicantProfile, ApplicationMaterials, ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.job_application import EmailCandidate, JobApplication, RunStatus
from jobctrl.apply.domain.run_events import NEEDS_VERIFICATION_CODE
from jobctrl.apply.ports import BrowserApplyRequest, BrowserOutcome, FormFilled, OutgoingEmail
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.grant_repeat_override import grant_repeat_override
from jobctrl.apply.use_cases.record_email_candidate import record_email_candidate
from jobctrl.apply.use_cases.record_review_decision import ReviewDecisionCommand, record_review_decision
from jobctrl.apply.use_cases.recover_ambiguous_apply import (
    recover_ambiguous_apply,
    settle_verification,
)
from jobctrl.apply.use_cases.run_apply import run_apply
from jobctrl.apply.use_cases.send_email_application import send_email_application
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.apply_site.site import LocalJobSite

PROFILE = ApplicantProfile(full_name="Ada Lovelace", email="ada@example.org", phone="+1 555 0100")


# -- session resources ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def job_site() -> Iterator[LocalJobSite]:
    with LocalJobSite() as site:
        yield site


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
        assert self.server is not None
        self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    controller = PortZeroController(inbox, hostname="127.0.0.1", port=0)
    controller.start()
    try:
        yield inbox, int(controller.port)
    finally:
        controller.stop()


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

    def claim(self, job: str, run: str, *, dry_run: bool, worker_id: str = "w1", **options: bool) -> Any:
        """Claim an apply run of ``job`` the way every scenario does (options: ``email``, ``batch``)."""
        return claim_apply(
            self.store,
            self.facts[job],
            self.policy,
            run_id=run,
            worker_id=worker_id,
            model="none",
            dry_run=dry_run,
            clock=self.clock,
            **options,
        )


@pytest.fixture
def world(database: Database, tmp_path: Path) -> World:
    store = EventStore(database, registry())
    store.create_schema()
    resume = tmp_path / "resume.pdf"
    resume.write_bytes(b"%PDF-1.4 resume")
    return World(store=store, resume=resume)


def _materials(w: World, job: str) -> ApplicationMaterials:
    gen = w.facts[job].materials_generation or 1
    return ApplicationMaterials(generation=gen, resume_pdf_path=str(w.resume), cover_letter_text="Dear team")


# -- given ------------------------------------------------------------------------------------------
@given(parsers.parse('a prepared job "{job}" at "{employer}" for "{role}"'))
def prepared_job(world: World, job: str, employer: str, role: str) -> None:
    world.facts[job] = CurrentJobFacts(
        job_id=job,
        employer=employer,
        role=role,
        materials_generation=1,
        profile_version=1,
        application_url=f"https://jobs.example/{job}",
        resume_pdf_ready=True,
        score_current=True,
        score_eligible=True,
        score=8.0,
    )


@given(parsers.parse('job "{job}" is reviewed at "{path}" on the local job site'))
def on_local_site(world: World, job_site: LocalJobSite, job: str, path: str) -> None:
    world.facts[job] = dataclasses.replace(world.facts[job], application_url=job_site.url(path))


_FACT_CHANGES: dict[str, Any] = {
    "materials generation": lambda v: {"materials_generation": int(v)},
    "profile version": lambda v: {"profile_version": int(v)},
    "application URL": lambda v: {"application_url": v.strip('"')},
    "score": lambda v: {"score": float(v)},
    "resume PDF": lambda v: {"resume_pdf_ready": v == "ready"},
    "score currency": lambda v: {"score_current": v == "current"},
    "score eligibility": lambda v: {"score_eligible": v == "eligible"},
    "posting": lambda v: {"closed": v == "closed"},
}


@given(
    parsers.re(
        r'job "(?P<job>[^"]+)" has (?P<field_>'
        + "|".join(sorted(_FACT_CHANGES, key=len, reverse=True))
        + r") (?P<value>.+)"
    )
)
def job_fact(world: World, job: str, field_: str, value: str) -> None:
    world.facts[job] = dataclasses.replace(world.facts[job], **_FACT_CHANGES[field_](value))


def _dry_run(world: World, job: str, outcome: BrowserOutcome) -> None:
    run = world.next_run(job)
    world.claim(job, run, dry_run=True)
    run_apply(
        world.store,
        job_id=job,
        run_id=run,
        facts=world.facts[job],
        policy=world.policy,
        profile=PROFILE,
        materials=_materials(world, job),
        browser=FakeBrowser(outcome),
        clock=world.clock,
    )


@given(parsers.parse('a dry run of "{job}" completed with {coverage} coverage'))
def dry_run_done(world: World, job: str, coverage: str) -> None:
    missing = () if coverage == "full" else ("phone",)
    _dry_run(world, job, FormFilled(filled=("email",), missing=missing, blocked_attempts=0))


@given(
    parsers.parse('a dry run of "{job}" found the email candidate "{recipient}" with attachment "{artifact}"')
)
def email_candidate(world: World, job: str, recipient: str, artifact: str) -> None:
    run = world.next_run(job)
    world.claim(job, run, dry_run=True)
    candidate = EmailCandidate(
        run_id=run,
        recipient=recipient,
        subject="Application: Data Engineer",
        body="Please find my resume attached.",
        attachment_artifact_id=artifact,
        attachment_name="resume.pdf",
    )
    record_email_candidate(
        world.store, run_id=run, facts=world.facts[job], candidate=candidate, clock=world.clock
    )


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


@given(parsers.parse('the user approved submitting "{job}"'))
def approved(world: World, job: str) -> None:
    _approve(world, job)


@given(
    parsers.parse(
        'the user approved submitting "{job}" with the partial-coverage override of its last dry run'
    )
)
def approved_with_override(world: World, job: str) -> None:
    _approve(world, job, partial_override_run_id=world.runs[job])


@given(parsers.parse('the user approved emailing "{job}" to "{recipient}" with attachment "{artifact}"'))
def approved_email(world: World, job: str, recipient: str, artifact: str) -> None:
    _approve(world, job, email_recipient=recipient, email_attachment_artifact_id=artifact)


@given(parsers.re(r'the user (?P<decision>deferred|declined|reset the review of) "(?P<job>[^"]+)"'))
def other_decision(world: World, decision: str, job: str) -> None:
    kind = {"deferred": "defer", "declined": "decline", "reset the review of": "reset"}[decision]
    record_review_decision(world.store, ReviewDecisionCommand(job_id=job, decision=kind), world.facts[job])  # type: ignore[arg-type]


@given(parsers.parse('a live run of "{job}" was claimed'))
@when(parsers.parse('a live run of "{job}" is claimed'))
def live_claim(world: World, job: str) -> None:
    run = world.next_run(job)
    world.attempt(lambda: world.claim(job, run, dry_run=False))


@given(parsers.parse('a live email run of "{job}" recorded its submit intent and then the worker crashed'))
def crashed_after_intent(world: World, job: str) -> None:
    run = world.next_run(job)
    world.claim(job, run, dry_run=False, email=True)
    repo = jobs(world.store, world.clock)
    app = repo.get(job)
    app.intend_submit(
        run, tenant_id="local", material_version="1:art-1", intended_at="2026-03-01T09:00:00.000Z"
    )
    repo.save(app)


@given(parsers.parse('a live run of "{job}" was claimed and its worker crashed before any submit intent'))
def crashed_before_intent(world: World, job: str) -> None:
    run = world.next_run(job)
    world.claim(job, run, dry_run=False, email=True)


@when(parsers.parse('two workers claim a live run of "{job}" at the same time'))
def racing_claims(world: World, job: str) -> None:
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def claim(run: str) -> None:
        barrier.wait()
        try:
            world.claim(job, run, dry_run=False, worker_id=run)
            outcomes.append("claimed")
        except JobCtrlError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=claim, args=(f"race-{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    world.result = sorted(outcomes)


@then("exactly one of them holds the claim")
def one_claim(world: World) -> None:
    assert world.result.count("claimed") == 1, world.result
    assert set(world.result) - {"claimed"} <= {"apply_claim_conflict", "apply_claim_refused"}


@then("the intent was in the log before the message was handed to the sender")
def intent_first(world: World) -> None:
    assert world.sender.intent_was_committed == [True]


@then("the recovery changed nothing")
def recovery_nothing(world: World) -> None:
    assert world.result.needs_verification == () and world.result.abandoned == ()


@when(parsers.parse('the user verifies that the application of "{job}" {outcome}'))
def verify(world: World, job: str, outcome: str) -> None:
    submitted = {"went out": True, "did not go out": False}[outcome]
    world.attempt(
        lambda: settle_verification(world.store, job_id=job, submitted=submitted, clock=world.clock)
    )


@then(parsers.parse('the settlement is refused with "{code}" and nothing is written'))
def settlement_refused(world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code, world.error
    head = world.store.head_position()
    world.attempt(lambda: settle_verification(world.store, job_id="job-1", submitted=True, clock=world.clock))
    assert world.error is not None and world.store.head_position() == head


@given("approval is not required")
def no_approval(world: World) -> None:
    world.policy = dataclasses.replace(world.policy, approval_required=False)


# -- when -------------------------------------------------------------------------------------------
@when(parsers.parse('a batch {mode} claim of "{job}" is made'))
def batch_claim(world: World, mode: str, job: str) -> None:
    run = world.next_run(job)
    world.attempt(lambda: world.claim(job, run, dry_run=mode == "dry", batch=True))


@when(parsers.parse('a dry run of "{job}" fills the page with the real browser'))
def real_dry_run(world: World, chromium: Browser, job_site: LocalJobSite, job: str) -> None:
    job_site.reset()
    run = world.next_run(job)
    world.claim(job, run, dry_run=True)
    _run_real(world, chromium, job, run)


@when(parsers.parse('the live run of "{job}" fills the page with the real browser'))
def real_live_run(world: World, chromium: Browser, job_site: LocalJobSite, job: str) -> None:
    job_site.reset()
    assert world.error is None, world.error
    _run_real(world, chromium, job, world.runs[job])


def _run_real(world: World, chromium: Browser, job: str, run: str) -> None:
    world.attempt(
        lambda: run_apply(
            world.store,
            job_id=job,
            run_id=run,
            facts=world.facts[job],
            policy=world.policy,
            profile=PROFILE,
            materials=_materials(world, job),
            browser=PlaywrightBrowserApply(chromium, settle_ms=400),
            clock=world.clock,
        )
    )


@when(parsers.parse('the page "{path}" is opened in a plain browser without any guard'))
def unguarded(chromium: Browser, job_site: LocalJobSite, path: str) -> None:
    job_site.reset()
    context = chromium.new_context()
    try:
        context.set_default_timeout(2_000)
        page = context.new_page()
        with contextlib.suppress(PlaywrightError):  # the page may navigate itself away meanwhile
            page.goto(job_site.url(path), wait_until="load")
            page.wait_for_timeout(400)
    finally:
        context.close()


@when(parsers.parse('a dry run of "{job}" whose driver reports the application as submitted'))
def lying_driver(world: World, job: str) -> None:
    world.attempt(
        lambda: _dry_run(
            world, job, FormFilled(filled=("email",), missing=(), blocked_attempts=0, reported_submitted=True)
        )
    )


@when(parsers.parse('the email application of "{job}" is sent'))
def send_email(world: World, smtp: tuple[Inbox, int], job: str) -> None:
    if world.sender is None:
        world.sender = ObservingSender(
            SmtpEmailSender("127.0.0.1", smtp[1], sender="ada@example.org", timeout_s=5), world.store
        )
    run = world.runs[job]

    def claim_and_send() -> Any:
        nonlocal run
        if world.app(job).run(run).dry_run:
            run = world.next_run(job)
            world.claim(job, run, dry_run=False, email=True)
        return send_email_application(
            world.store,
            run_id=run,
            facts=world.facts[job],
            sender=world.sender,
            artifacts=Artifacts(),
            clock=world.clock,
        )

    world.attempt(claim_and_send)


@when("the SMTP sender fails during the send")
def sender_fails(world: World) -> None:
    world.sender = FailingSender()


@given(parsers.parse('recovery ran for "{job}"'))
@when(parsers.parse('recovery runs for "{job}"'))
def recovery(world: World, job: str) -> None:
    world.result = recover_ambiguous_apply(
        world.store, job_id=job, stale_run_ids=frozenset({world.runs[job]}), clock=world.clock
    )


@when(parsers.parse('the user grants a repeat-application override for "{job}"'))
def override(world: World, job: str) -> None:
    grant_repeat_override(world.store, world.facts[job], reason="different team", clock=world.clock)


@when(parsers.parse('the user approves submitting "{job}" with materials generation {gen:d}'))
def approve_uncommitted(world: World, job: str, gen: int) -> None:
    f = world.facts[job]
    command = ReviewDecisionCommand(
        job_id=job,
        decision="approve_submit",
        materials_generation=gen,
        profile_version=f.profile_version,
        application_url=f.application_url,
    )
    world.attempt(lambda: record_review_decision(world.store, command, f, clock=world.clock))


@when(parsers.parse('the approval of "{job}" is read from a store that cannot be read'))
def unreadable(world: World, job: str) -> None:
    with world.store.db.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE job_events RENAME TO job_events_gone")
    world.result = read_approval(world.store, world.facts[job], email=False)


# -- then -------------------------------------------------------------------------------------------
def _reason(error: JobCtrlError | None) -> str | None:
    return error.reason if isinstance(error, ApprovalRefused | ClaimRefused) else None


@then(parsers.parse('the claim is refused with "{reason}"'))
@then(parsers.parse('it is refused with "{reason}"'))
def refused(world: World, reason: str) -> None:
    assert _reason(world.error) == reason, world.error


@then(parsers.parse('it fails with the code "{code}"'))
def failed_code(world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code, world.error


@then("the claim succeeds")
def claim_ok(world: World) -> None:
    assert world.error is None, world.error


@then(parsers.parse("the log holds {count:d} {event_type} event"))
@then(parsers.parse("the log holds {count:d} {event_type} events"))
def log_holds(world: World, count: int, event_type: str) -> None:
    assert world.types().count(event_type) == count, world.types()


@then(parsers.parse('the log holds {count:d} {event_type} events for "{job}"'))
def log_holds_for(world: World, count: int, event_type: str, job: str) -> None:
    rows = [e for e in world.store.read_all(limit=10_000) if e.event_type == event_type]
    assert sum(1 for e in rows if f'"jobId":"{job}"'.encode() in e.payload) == count


@then(parsers.parse('the last run of "{job}" is {status}'))
def run_status(world: World, job: str, status: str) -> None:
    assert world.app(job).run(world.runs[job]).status is RunStatus(status.replace(" ", "_"))


@then(parsers.parse('the last run of "{job}" recorded {coverage} coverage'))
def coverage(world: World, job: str, coverage: str) -> None:
    evidence = world.app(job).run(world.runs[job]).evidence
    assert evidence is not None and evidence.coverage == coverage


@then("the job site received no submission")
def nothing_sent(job_site: LocalJobSite) -> None:
    assert job_site.sends() == 0, dict(job_site.counts)
    assert job_site.counts["reviewed_get"] == 1  # the reviewed page itself was loaded exactly once


@then("the job site counted the submission")
def counted(job_site: LocalJobSite) -> None:
    assert job_site.sends() > 0, dict(job_site.counts)


@then(parsers.parse('the SMTP server received {count:d} message to "{recipient}" carrying "{artifact}"'))
@then(parsers.parse('the SMTP server received {count:d} messages to "{recipient}" carrying "{artifact}"'))
def smtp_received(world: World, smtp: tuple[Inbox, int], count: int, recipient: str, artifact: str) -> None:
    messages = smtp[0].messages
    assert len(messages) == count
    for envelope in messages:
        assert envelope.rcpt_tos == [recipient]  # the envelope goes to the approved address only
        mail = message_from_bytes(envelope.content, policy=email_policy.default)
        assert mail["To"] == recipient and mail["Cc"] is None and mail["Bcc"] is None
        attachments = list(mail.iter_attachments())  # type: ignore[attr-defined]
        assert len(attachments) == 1 and attachments[0].get_content() == Artifacts().read(artifact)


@then(parsers.parse("the sender was called {count:d} time"))
def sender_calls(world: World, count: int) -> None:
    assert world.sender.calls == count


@then(parsers.parse('the last run of "{job}" needs verification with "{code}"'))
def needs_verification(world: World, job: str, code: str) -> None:
    assert world.app(job).run(world.runs[job]).status is RunStatus.NEEDS_VERIFICATION
    assert code == NEEDS_VERIFICATION_CODE
    events = [e for e in world.store.read_all(limit=10_000) if e.event_type == "ApplyRunEventRecorded"]
    assert any(code.encode() in e.payload for e in events)


@then(parsers.parse('the approval reads as "{reason}"'))
def approval_reads(world: World, reason: str) -> None:
    assert world.result == reason
