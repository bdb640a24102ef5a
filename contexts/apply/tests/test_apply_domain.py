"""Unit tests of the apply domain pieces that features do not spell out."""

from __future__ import annotations

from email import message_from_bytes
from email import policy as email_policy

import msgspec
import pytest

from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.domain.errors import RunNotActive, SubmitAlreadyIntended
from jobctrl.apply.domain.facts import ClaimPolicy
from jobctrl.apply.domain.identity import identity_key
from jobctrl.apply.domain.job_application import JobApplication, RunStatus
from jobctrl.apply.domain.run_events import (
    DryRunCompleted,
    FailureResult,
    NeedsVerification,
    decode_failure,
    decode_run_event,
    encode_body,
)
from jobctrl.apply.events import EVENTS
from jobctrl.apply.ports import OutgoingEmail
from jobctrl.kernel.catalog import CANONICAL_EVENT_NAMES
from jobctrl.testing.apply_facts import ready_facts

FACTS = ready_facts(url="https://jobs.example/1")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Acme Inc.", "Data Engineer"), ("ACME", "data   engineer")),
        (("Zürich Labs GmbH", "ML-Engineer"), ("Zurich Labs", "ml engineer")),
    ],
)
def test_identity_key_ignores_case_accents_punctuation_and_legal_form(
    a: tuple[str, str], b: tuple[str, str]
) -> None:
    assert identity_key(*a) == identity_key(*b)


def test_identity_key_separates_roles_and_employers() -> None:
    assert identity_key("Acme", "Data Engineer") != identity_key("Acme", "Data Engineer II")
    assert identity_key("Acme", "Data Engineer") != identity_key("Acme Bank", "Data Engineer")
    assert identity_key("Inc", "Engineer") != identity_key("Co", "Engineer")  # a suffix alone is a name


def test_run_event_bodies_round_trip_typed() -> None:
    evidence = DryRunCompleted(
        coverage="partial",
        materials_generation=2,
        profile_version=3,
        application_url="https://jobs.example/1",
        filled=["email"],
        missing=["phone"],
        blocked_attempts=4,
    )
    raw = encode_body(evidence)
    assert raw["kind"] == "dry_run_completed" and raw["materialsGeneration"] == 2
    assert decode_run_event(raw) == evidence
    verify = encode_body(NeedsVerification(cause="intent_without_result"))
    assert verify["code"] == "APPLY_NEEDS_VERIFICATION"
    assert decode_failure(encode_body(FailureResult(code="form_not_found", retryable=False))).code == (
        "form_not_found"
    )
    with pytest.raises(msgspec.ValidationError):
        decode_run_event({"kind": "applied"})


def test_every_apply_event_is_in_the_catalog() -> None:
    assert {e.event_type for e in EVENTS} <= set(CANONICAL_EVENT_NAMES)


def _live_run(app: JobApplication) -> None:
    app.start_run(
        run_id="r1",
        worker_id="w",
        model="none",
        dry_run=False,
        started_at="2026-03-01T00:00:00.000Z",
        facts=FACTS,
        policy=ClaimPolicy(),
        batch=False,
    )


def test_a_failure_after_an_intent_is_refused_it_must_be_verified() -> None:
    app = JobApplication("job-1")
    _live_run(app)
    app.intend_submit("r1", tenant_id="local", material_version="1", intended_at="t")
    with pytest.raises(SubmitAlreadyIntended):
        app.fail("r1", FailureResult(code="page_unavailable", retryable=True))
    with pytest.raises(SubmitAlreadyIntended):
        app.intend_submit("r1", tenant_id="local", material_version="1", intended_at="t")


def test_the_first_terminal_result_wins() -> None:
    app = JobApplication("job-1")
    _live_run(app)
    app.intend_submit("r1", tenant_id="local", material_version="1", intended_at="t")
    app.mark_submitted("r1", applied_at="t", verification_confidence=1.0)
    with pytest.raises(RunNotActive):
        app.mark_submitted("r1", applied_at="t", verification_confidence=1.0)
    with pytest.raises(RunNotActive):
        app.block("r1", "trusted_final_submit_required", blocked_at="t")
    assert app.run("r1").status is RunStatus.SUCCEEDED


def test_a_dry_run_cannot_intend_a_submit() -> None:
    app = JobApplication("job-1")
    app.start_run(
        run_id="d1",
        worker_id="w",
        model="none",
        dry_run=True,
        started_at="t",
        facts=FACTS,
        policy=ClaimPolicy(),
        batch=False,
    )
    with pytest.raises(RunNotActive):
        app.intend_submit("d1", tenant_id="local", material_version="1", intended_at="t")
    assert app.pending_events[-1].event_type == "ApplyRunStarted"


def test_the_smtp_message_carries_one_recipient_and_one_attachment() -> None:
    sender = SmtpEmailSender("127.0.0.1", 1, sender="ada@example.org")
    mail = sender.build(
        OutgoingEmail(
            recipient="jobs@acme.example",
            subject="Application",
            body="Hello",
            attachment_name="resume.pdf",
            attachment=b"%PDF-1.4 x",
        )
    )
    parsed = message_from_bytes(mail.as_bytes(), policy=email_policy.default)
    assert parsed["To"] == "jobs@acme.example" and parsed["Cc"] is None and parsed["Bcc"] is None
    attachments = list(parsed.iter_attachments())
    assert [a.get_filename() for a in attachments] == ["resume.pdf"]
    assert attachments[0].get_content() == b"%PDF-1.4 x"
