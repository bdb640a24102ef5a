"""No private data on the stream (ADR 0104; issue #18, row 4).

A canary test on a live server: a profile, a contact and an application decision are written with
markers shaped like codes (so only an allowlist can stop them), and the markers never appear in SSE
frames (from position 0), heartbeats, step and run projections, logs or error bodies."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import msgspec
import pytest
from sqlalchemy import select

from jobctrl.contact.adapters.vault import FileKeyStore, PersonalDataVault
from jobctrl.contact.domain.aggregates import Contact
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import save_all
from jobctrl.kernel.clock import SystemClock, now_iso
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.api.stream_privacy import carries_personal_data, stream_payload
from jobctrl.testing.runtime.api_seed import discover_job, fail_stage, project, start_run

from .conftest import RunningApi, run_api

pytestmark = pytest.mark.both_databases


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class Stream:
    """``/v1/events/stream?since=0`` read in a thread, every line kept."""

    def __init__(self, base: str) -> None:
        self.lines: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(base,), daemon=True)
        self.thread.start()

    def _read(self, base: str) -> None:
        with httpx.stream("GET", f"{base}/v1/events/stream?since=0", timeout=30) as response:
            for line in response.iter_lines():
                self.lines.append(line)
                if self.stop.is_set():
                    return

    def wait_for(self, position: int, deadline_s: float = 20.0) -> None:
        """Until frame ``position`` and a heartbeat after it have arrived."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            lines = list(self.lines)
            if f"id: {position}" in lines and "event: heartbeat" in lines[lines.index(f"id: {position}") :]:
                return
            time.sleep(0.05)
        raise AssertionError(f"frame {position} and a heartbeat did not arrive: {self.lines[-10:]}")


@pytest.fixture
def live(db_url: str) -> Iterator[RunningApi]:
    config = ApiConfig(database_url=db_url, sse_poll_s=0.05, keepalive_s=0.3, heartbeat_s=0.4,
                       run_projections=True)  # fmt: skip
    yield from run_api(config, log_level="debug")


def test_canary_markers_never_leave_through_the_stream_logs_or_errors(
    live: RunningApi, database: Database, tmp_path: Path
) -> None:
    mark = secrets.token_hex(6).upper()
    phone = "5550" + "".join(secrets.choice("0123456789") for _ in range(9))  # code-shaped: digits only
    markers = {f"NAME{mark}", f"MAIL{mark}", f"PHONE{mark}", f"RESUME{mark}", f"BULLET{mark}", f"RCPT{mark}",
               f"URL{mark}", f"REASON{mark}", f"SEALED{mark}", f"BAD{mark}", phone}  # fmt: skip
    logs = Lines()
    watched = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "uvicorn.access", "jobctrl")]
    for logger in watched:
        logger.addHandler(logs)
    store = EventStore(database, registry())
    base = live.base_url
    stream = Stream(base)
    errors: list[str] = []
    try:
        discover_job(store, "j1")
        fail_stage(store, "j1", "score")
        start_run(store, "discover-local", "r1")
        profile = {
            "contact": {
                "name": f"NAME{mark}",
                "headline": "Engineer",
                "email": f"MAIL{mark}@canary.example",
                "phone": phone,
            },
            "summary": [{"id": "sum-1", "text": f"RESUME{mark}"}],
            "experience": [
                {
                    "id": "exp-1",
                    "employer": "Acme",
                    "title": "Engineer",
                    "start": "2020",
                    "bullets": [{"id": "b-1", "text": f"BULLET{mark}"}],
                }
            ],
        }
        saved = httpx.patch(f"{base}/v1/profile", json=profile, timeout=10)
        assert saved.status_code == 200, saved.text
        decision = {"decision": "approve_submit", "emailRecipient": f"RCPT{mark}",
                    "applicationUrl": f"URL{mark}", "reason": f"REASON{mark}"}  # fmt: skip
        answer = httpx.post(f"{base}/v1/jobs/j1/apply-review/decision", json=decision, timeout=10)
        errors.append(answer.text)
        vault = PersonalDataVault(database, FileKeyStore(tmp_path / "keys"))
        vault.create_schema()
        svc = ContactServices(store=store, vault=vault, clock=SystemClock())
        contact = Contact("contact-canary")
        contact.create(employer=None, job_id=None, role="recruiter", at=now_iso(svc.clock))
        contact.record_attribute(
            attribute_id="attr-1", kind="email", source_kind="public_web_page", source_ref="ref-1",
            capture_method="offline", confidence=0.7, user_confirmed=True,
            sealed_value=vault.seal("contact-canary", {"value": f"SEALED{mark}"}, now=datetime.now(UTC)),
            at=now_iso(svc.clock),
        )  # fmt: skip
        save_all(store, [(svc.contacts, contact)])
        sealed = list(store.read_all(types=["ContactAttributeRecorded"]))
        assert sealed and f"SEALED{mark}" not in sealed[0].payload.decode()
        ciphertext = msgspec_field(sealed[0].payload, "sealedValue")
        for bad in (
            httpx.patch(f"{base}/v1/profile", json={"hobbies": f"BAD{mark}"}, timeout=10),
            httpx.patch(f"{base}/v1/settings", json={"minFitScore": f"BAD{mark}"}, timeout=10),
            httpx.patch(f"{base}/v1/settings", json={"crawlUserAgent": f"BAD{mark}" * 100}, timeout=10),
            httpx.get(f"{base}/v1/jobs/missing-job", params={"q": f"BAD{mark}"}, timeout=10),
            httpx.post(f"{base}/v1/jobs/missing-job/apply-review/decision", json=decision, timeout=10),
            httpx.get(f"{base}/v1/events/stream?since=BAD{mark}", timeout=10),
        ):
            assert bad.status_code >= 400, bad.text
            errors.append(bad.text)
        head = store.head_position()
        stream.wait_for(head)
        project(database)
    finally:
        stream.stop.set()
        for logger in watched:
            logger.removeHandler(logs)
    frames = "\n".join(stream.lines)
    assert "event: ProfileRevisionSaved" in frames and "event: ContactAttributeRecorded" in frames
    assert "event: heartbeat" in frames
    assert ciphertext not in frames  # sealed values stay off the stream too
    with database.read() as conn:
        steps = [
            str(row)
            for t in (pipeline_step_projections, workflow_run_projections)
            for row in conn.execute(select(t))
        ]
    assert steps  # the run is there to look at
    places = {
        "frames": frames,
        "logs": "\n".join(logs.lines),
        "errors": "\n".join(errors),
        "steps": "\n".join(steps),
    }
    leaks = [
        f"{m} in {where}: ...{body[max(0, body.index(m) - 120) : body.index(m) + 40]}"
        for where, body in places.items()
        for m in markers
        if m in body
    ]
    assert leaks == []


def msgspec_field(payload: bytes, name: str) -> str:
    value = msgspec.json.decode(payload)[name]
    assert isinstance(value, str) and len(value) > 20
    return value


def test_personal_events_keep_ids_and_versions_only() -> None:
    payload = {"profileVersion": 3, "content": {"contact": {"email": "a@b.c"}}, "factsDigest": "abc123",
               "savedAt": "2026-01-01T00:00:00Z", "jobId": "j1"}  # fmt: skip
    assert stream_payload("ProfileRevisionSaved", payload) == {"profileVersion": 3, "jobId": "j1"}
    assert carries_personal_data("ContactAttributeRecorded") and carries_personal_data(
        "ApplyReviewDecisionRecorded"
    )
    assert not carries_personal_data("JobDiscovered")


def test_other_events_keep_codes_and_drop_text() -> None:
    payload = {"jobId": "j1", "stage": "score", "status": "failed", "errorCode": "llm_transient",
               "employer": "Acme", "postingUrl": "https://x.example/1", "title": "Engineer", "attempt": 2,
               "sourceIds": ["greenhouse:acme", "a b"], "metadata": {"k": "v"}}  # fmt: skip
    assert stream_payload("PipelineStepFailed", payload) == {
        "jobId": "j1", "stage": "score", "status": "failed", "errorCode": "llm_transient", "attempt": 2,
        "sourceIds": ["greenhouse:acme"],
    }  # fmt: skip
