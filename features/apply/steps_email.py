"""Steps about email applications and their at-most-once recovery: sends through a real local
SMTP server, crashes around the submit intent, recovery and the user's verification."""

from __future__ import annotations

from email import message_from_bytes
from email import policy as email_policy
from typing import Any

from pytest_bdd import given, parsers, then, when

from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.domain.job_application import EmailCandidate, RunStatus
from jobctrl.apply.domain.run_events import NEEDS_VERIFICATION_CODE
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.record_email_candidate import record_email_candidate
from jobctrl.apply.use_cases.recover_ambiguous_apply import (
    recover_ambiguous_apply,
    settle_verification,
)
from jobctrl.apply.use_cases.send_email_application import send_email_application

from .world import Artifacts, FailingSender, Inbox, ObservingSender, World


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


@then(parsers.parse('the SMTP server received {count:d} message to "{recipient}" carrying "{artifact}"'))
@then(parsers.parse('the SMTP server received {count:d} messages to "{recipient}" carrying "{artifact}"'))
def smtp_received(world: World, smtp: tuple[Inbox, int], count: int, recipient: str, artifact: str) -> None:
    messages = smtp[0].messages
    assert len(messages) == count
    for envelope in messages:
        assert envelope.rcpt_tos == [recipient]  # the envelope goes to the approved address only
        mail = message_from_bytes(envelope.content, policy=email_policy.default)
        assert mail["To"] == recipient and mail["Cc"] is None and mail["Bcc"] is None
        attachments = list(mail.iter_attachments())
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
