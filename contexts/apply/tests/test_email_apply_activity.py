"""The apply activity's email path against a real local SMTP server that counts (ADR 0161).

The activity body runs as Temporal would run it (``_one`` under an owner), over a real store: the dry
run of a ``mailto:`` target records the candidate, the approval names it, the live run sends once, and
a retry of the same live run (same Temporal run, next attempt) never sends again.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.apply.activities import ApplyActivities, ApplyInputs
from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.domain.errors import EmailSendOutcomeAmbiguous
from jobctrl.apply.domain.facts import ApplicantProfile, ApplicationMaterials, ClaimPolicy
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.apply.ports import BrowserApplyPort, EmailSenderPort
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.record_review_decision import ReviewDecisionCommand, record_review_decision
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import MissingInputError
from jobctrl.kernel.store import EventStore
from jobctrl.testing.apply_facts import ready_facts
from jobctrl.testing.smtp_server import CountingSmtpServer, counting_smtp_server

CLOCK = FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC))
FACTS = ready_facts("job-1", "Globex", "Platform Engineer", url="mailto:careers@globex.example")


class Artifacts:
    def read(self, artifact_id: str) -> bytes:
        return b"%PDF-1.4 " + artifact_id.encode()


class NoBrowser:
    def fill_application(self, request: object) -> object:
        raise AssertionError("an email target never opens a browser")


@pytest.fixture
def smtp(tmp_path: Path) -> Iterator[CountingSmtpServer]:
    with counting_smtp_server(tmp_path, username="ada", password="pw") as server:
        yield server


def _activities(store: EventStore, smtp: CountingSmtpServer | None) -> ApplyActivities:
    def sender() -> EmailSenderPort:
        if smtp is None:
            raise MissingInputError("no SMTP sender is configured")
        assert smtp.ca_file is not None
        return SmtpEmailSender(
            "127.0.0.1", smtp.port, sender="ada@example.org", starttls=True, username="ada", password="pw",
            tls_context=ssl.create_default_context(cafile=str(smtp.ca_file)),
        )  # fmt: skip

    def inputs(job_id: str) -> ApplyInputs:
        return ApplyInputs(
            FACTS,
            ApplicantProfile(full_name="Ada Lovelace", email="ada@example.org", phone=""),
            ApplicationMaterials(
                generation=1, resume_pdf_path="/nonexistent.pdf", cover_letter_text="Dear Globex",
                resume_artifact_id="resume-pdf-1",
            ),
        )  # fmt: skip

    def browser() -> BrowserApplyPort:
        return NoBrowser()  # type: ignore[return-value]

    return ApplyActivities(
        store, inputs=inputs, candidates=lambda t, n: [], policy=ClaimPolicy, browser=browser,
        clock=CLOCK, email_sender=sender, artifacts=Artifacts(),
    )  # fmt: skip


def _dry_run_and_approve(store: EventStore, acts: ApplyActivities) -> None:
    assert acts._one("local", "job-1", True, False, StepOwner("apply-dry", "t-dry", 1)) is False
    app = jobs(store, CLOCK).get("job-1")
    candidate = app.state.email_candidate
    assert candidate is not None and candidate.recipient == "careers@globex.example"
    assert candidate.attachment_artifact_id == "resume-pdf-1" and candidate.body == "Dear Globex"
    record_review_decision(
        store,
        ReviewDecisionCommand(
            job_id="job-1", decision="approve_submit", materials_generation=1, profile_version=1,
            application_url=FACTS.application_url, email_recipient=candidate.recipient,
            email_attachment_artifact_id=candidate.attachment_artifact_id,
        ),
        FACTS, clock=CLOCK,
    )  # fmt: skip


@pytest.mark.both_databases
def test_dry_run_then_approved_live_send_is_counted_once(store: EventStore, smtp: CountingSmtpServer) -> None:
    acts = _activities(store, smtp)
    _dry_run_and_approve(store, acts)
    assert smtp.accepted == []  # the dry run sent nothing
    assert acts._one("local", "job-1", False, False, StepOwner("apply-live", "t-live", 1)) is True
    assert len(smtp.accepted) == 1 and smtp.accepted[0].rcpt_tos == ["careers@globex.example"]
    types = [e.event_type for e in store.read_all(limit=1000)]
    assert types.index("ApplySubmitIntended") < types.index("ApplicationSubmitted")
    # The same run again (an activity retry) and a new run: nothing is sent twice.
    assert acts._one("local", "job-1", False, False, StepOwner("apply-live", "t-live", 2)) is True
    assert len(smtp.accepted) == 1


@pytest.mark.both_databases
def test_a_retry_after_the_intent_never_sends_and_leaves_needs_verification(
    store: EventStore, smtp: CountingSmtpServer
) -> None:
    acts = _activities(store, smtp)
    _dry_run_and_approve(store, acts)
    smtp.stop()  # the first attempt's send fails after the intent (connection refused)
    with pytest.raises(EmailSendOutcomeAmbiguous):
        acts._one("local", "job-1", False, False, StepOwner("apply-live", "t-live", 1))
    app = jobs(store, CLOCK).get("job-1")
    [live] = [r for r in app.state.runs.values() if not r.dry_run]
    assert live.intended and live.status is RunStatus.NEEDS_VERIFICATION
    assert smtp.accepted == []


@pytest.mark.both_databases
def test_without_a_configured_sender_nothing_is_claimed(store: EventStore, smtp: CountingSmtpServer) -> None:
    _dry_run_and_approve(store, _activities(store, smtp))
    before = len(store.read_all(limit=1000))
    with pytest.raises(MissingInputError):
        _activities(store, None)._one("local", "job-1", False, False, StepOwner("apply-live", "t-live", 1))
    assert len(store.read_all(limit=1000)) == before
