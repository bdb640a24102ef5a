"""Steps for applications/after_preparation.feature (its world and background: ``conftest.py``).

The review page in headless Chromium driven by Playwright, the API over HTTP, the counting SMTP server
and the live worker's log.  Waits are bounded polls of a condition, never sleeps before an assert.
"""

from __future__ import annotations

import signal
from datetime import datetime, timedelta
from email import message_from_bytes
from email import policy as email_policy
from functools import partial
from typing import Any

import httpx
import pytest
from playwright.sync_api import sync_playwright
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client

from jobctrl.apply.adapters.browser import launch_chromium
from jobctrl.apply.domain.errors import ClaimRefused
from jobctrl.apply.domain.facts import ClaimPolicy
from jobctrl.apply.domain.job_application import JobApplication, RunStatus
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.kernel.clock import FixedClock, SystemClock
from jobctrl.kernel.store import open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration.workflows.ids import apply_workflow_id
from jobctrl.runtime.api.applications import due_follow_ups
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import LocalContext
from jobctrl.testing.runtime.live import until
from jobctrl.testing.runtime.read_models import differing_read_models

from .conftest import SMTP_USER, World

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("applications/after_preparation.feature")


# -- the dashboard ----------------------------------------------------------------------------------
@when("the user opens the review page in Chromium")
def _open(world: World) -> None:
    playwright = sync_playwright().start()
    world.closers.append(playwright.stop)
    world.browser = launch_chromium(playwright)
    world.closers.append(world.browser.close)
    world.page = world.browser.new_page(viewport={"width": 1200, "height": 1400})
    world.page.goto(f"{world.api}/review")
    world.page.wait_for_selector(f'[data-job="{world.job}"]', timeout=30_000)


def _card(world: World) -> Any:
    assert world.page is not None
    return world.page.locator(f'#queue [data-job="{world.job}"]')


@then("the page shows the job with its scores, its resume and cover letter, and why it cannot be sent yet")
def _shows(world: World) -> None:
    card = _card(world)
    assert "Platform Engineer · Globex" in card.locator("h3").inner_text()
    assert "fit " in card.inner_text() and "apply by email" in card.inner_text()
    assert card.locator('[data-role="reasons"] li').count() >= 1  # the score's reasons, in words
    assert card.locator('[data-role="gate"]').inner_text() == (
        "Not approved yet: approve submitting this application."
    )
    for role in ("resume", "cover"):
        frame = card.locator(f'iframe[data-role="{role}"]')
        until(partial(frame.get_attribute, "data-loaded"), f"the {role} PDF to load", timeout=30)
        assert frame.get_attribute("data-loaded") == "application/pdf"
    # The viewer's pages are not in the DOM: the words of the same PDFs are shown beside them.
    expected = {"resume": str(SAMPLE_PROFILE["name"]), "cover": "Globex"}
    for role, words in expected.items():
        shown = card.locator(f'pre[data-role="{role}-text"]')
        until(partial(shown.get_attribute, "data-loaded"), f"the {role} text to load", timeout=30)
        assert shown.is_visible() and shown.get_attribute("data-loaded") != "error", shown.inner_text()
        assert words in shown.inner_text() and "page 1 of" in shown.inner_text(), shown.inner_text()
    assert world.page is not None
    world.page.screenshot(path=str(world.tmp / "review-before.png"), full_page=True)


@when(parsers.parse('the user clicks "{label}"'))
def _click(world: World, label: str) -> None:
    card = _card(world)
    card.get_by_role("button", name=label, exact=True).click()
    until(lambda: card.locator('[data-role="result"]').get_attribute("data-state"), "the decision answer",
          timeout=30)  # fmt: skip
    assert card.locator('[data-role="result"]').get_attribute("data-state") == "started", card.locator(
        '[data-role="result"]'
    ).inner_text()


@then(parsers.parse('the dry run completes and records the email to "{recipient}" without sending anything'))
def _dry_run_done(world: World, recipient: str) -> None:
    def done() -> JobApplication | None:
        app = world.application()
        return app if app is not None and app.runs_with(RunStatus.DRY_RUN_COMPLETED) else None

    app = until(done, "the dry run to complete", log=world.log)
    candidate = app.state.email_candidate
    assert candidate is not None and candidate.recipient == recipient
    assert world.the_smtp().accepted == [] and "ApplySubmitIntended" not in world.types()


@when('the user reloads the review page and clicks "Approve"')
def _approve(world: World) -> None:
    assert world.page is not None
    world.page.reload()
    card = _card(world)
    until(lambda: "dry run completed" in card.inner_text(), "the page to show the dry run", timeout=30)
    _click(world, "Approve")
    world.page.screenshot(path=str(world.tmp / "review-approved.png"), full_page=True)


@then(
    parsers.parse(
        'the SMTP server has accepted exactly 1 message, to "{recipient}", with the resume attached'
    )
)
def _sent_once(world: World, recipient: str) -> None:
    smtp = world.the_smtp()
    until(lambda: "ApplicationSubmitted" in world.types(), "the application to be submitted", log=world.log)

    async def finished(client: Client) -> Any:
        return await client.get_workflow_handle(apply_workflow_id("local", world.job)).result()

    world.temporal_call(finished)  # the live workflow is over: nothing more can be sent by it
    assert len(smtp.accepted) == 1
    envelope = smtp.accepted[0]
    assert envelope.rcpt_tos == [recipient] and smtp.logins == [SMTP_USER]
    mail = message_from_bytes(envelope.original_content or b"", policy=email_policy.default)
    names = [part.get_filename() for part in mail.iter_attachments()]
    assert names == ["resume.pdf"]
    types = world.types()
    assert types.count("ApplySubmitIntended") == 1 and types.count("ApplicationSubmitted") == 1
    assert types.index("ApplySubmitIntended") < types.index("ApplicationSubmitted")


def _due_at(world: World, days_later: float) -> list[str]:
    row = until(lambda: (r := world.row()) is not None and r.applied_at is not None and r, "applied_at",
                log=world.log)  # fmt: skip
    applied = datetime.fromisoformat(row.applied_at.replace("Z", "+00:00"))
    ctx = LocalContext(
        db=world.the_db(), store=world.the_store(), clock=FixedClock(applied + timedelta(days=days_later))
    )
    return [item.job_id for item in due_follow_ups(ctx)[1]]


@then(parsers.parse("the application's follow-up falls due {days:d} days after it was sent"))
def _falls_due(world: World, days: int) -> None:
    assert _due_at(world, days - 0.01) == []
    assert _due_at(world, days) == [world.job]


@when(parsers.parse('the user records the outcome "{outcome}"'))
def _outcome(world: World, outcome: str) -> None:
    response = httpx.post(f"{world.api}/v1/jobs/{world.job}/outcomes", json={"outcome": outcome}, timeout=30)
    assert response.status_code == 201, response.text
    until(lambda: (r := world.row()) is not None and r.settled_at is not None, "the outcome folded",
          log=world.log)  # fmt: skip


@then("the application's follow-up is no longer due")
def _no_longer_due(world: World) -> None:
    assert _due_at(world, 30) == []
    due = httpx.get(f"{world.api}/v1/follow-ups/due", timeout=30).json()
    assert world.job not in [i["jobId"] for i in due["items"]]


@then(parsers.parse('the pipeline shows the job under "{stage}"'))
def _pipeline(world: World, stage: str) -> None:
    body = httpx.get(f"{world.api}/v1/applications/pipeline", timeout=30).json()
    assert [(i["jobId"], i["stage"]) for i in body["items"]] == [(world.job, stage)]
    assert world.page is not None
    world.page.reload()
    world.page.wait_for_selector(f'#pipeline [data-stage="{stage}"]', timeout=30_000)
    world.page.screenshot(path=str(world.tmp / "review-after.png"), full_page=True)


@then("every read model equals a clean rebuild of the log")
def _rebuild(world: World) -> None:
    until(world.caught_up, "the worker's runner to reach the head", log=world.log)
    world.stop_worker()  # its runner caught up and stopped: the tables are final
    fresh = open_database(f"sqlite:///{world.tmp / 'clean-rebuild.db'}")
    try:
        assert differing_read_models(world.the_db(), fresh) == []
    finally:
        fresh.dispose()


# -- the kill ---------------------------------------------------------------------------------------
@given("the SMTP server holds the next send before any message is handed over")
def _hold(world: World) -> None:
    world.the_smtp().hold()


def _decide(world: World, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{world.api}/v1/jobs/{world.job}/apply-review/decision", json=body, timeout=60)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@when("the user approves a dry run and then the application through the API")
def _approve_by_api(world: World) -> None:
    [item] = httpx.get(f"{world.api}/v1/apply/review", timeout=30).json()["items"]
    target = {k: item[k] for k in ("materialsGeneration", "profileVersion", "applicationUrl")}
    assert _decide(world, {"decision": "approve_dry_run", **target})["workflowId"]
    _dry_run_done(world, world.recipient)

    async def dry_finished(client: Client) -> Any:
        return await client.get_workflow_handle(apply_workflow_id("local", world.job)).result()

    world.temporal_call(dry_finished)
    [item] = httpx.get(f"{world.api}/v1/apply/review", timeout=30).json()["items"]
    started = _decide(
        world,
        {"decision": "approve_submit", **target, "emailRecipient": item["emailRecipient"],
         "emailAttachmentArtifactId": item["emailAttachmentArtifactId"]},
    )  # fmt: skip
    assert started["workflowId"] and started["dryRun"] is False, started


@when("the worker is killed with SIGKILL once the submit intent is recorded and the send has begun")
def _kill(world: World) -> None:
    smtp = world.the_smtp()
    until(lambda: "ApplySubmitIntended" in world.types(), "the submit intent", log=world.log)
    until(smtp.send_started.is_set, "the send to begin", log=world.log)
    assert world.worker is not None
    world.worker.send_signal(signal.SIGKILL)
    world.worker.wait(timeout=10)
    world.worker = None


@then(parsers.parse("the SMTP server has accepted {count:d} messages"))
def _accepted(world: World, count: int) -> None:
    assert len(world.the_smtp().accepted) == count


@when("a new jobctrl worker starts and the killed apply run has ended")
def _restart(world: World) -> None:
    world.spawn_worker()

    async def closed(client: Client) -> str:
        described = await client.get_workflow_handle(apply_workflow_id("local", world.job)).describe()
        return described.status.name if described.status else ""

    # Live apply has one attempt: the killed attempt times out on its heartbeat and is not retried.
    until(lambda: world.temporal_call(closed) not in ("", "RUNNING"), "the apply workflow to close",
          timeout=240, log=world.log)  # fmt: skip
    world.the_smtp().release()


@then("the application is left for recovery: a submit intent without a result, marked needs_verification")
def _left(world: World) -> None:
    app = world.application()
    assert app is not None
    [live] = [r for r in app.state.runs.values() if not r.dry_run]
    assert live.intended and live.status is RunStatus.NEEDS_VERIFICATION  # by the workflow's recover_apply
    types = world.types()
    assert types.count("ApplySubmitIntended") == 1 and "ApplicationSubmitted" not in types
    until(lambda: (r := world.row()) is not None and r.submit_intended_at is not None, "the intent folded")
    stages = httpx.get(f"{world.api}/v1/applications/pipeline", timeout=30).json()["counts"]
    assert stages == {"needs_verification": 1}


@then(parsers.parse('a new live claim of the job is refused as "{reason}"'))
def _refused(world: World, reason: str) -> None:
    ctx = LocalContext(db=world.the_db(), store=world.the_store(), clock=SystemClock())
    facts = current_facts(ctx, world.job)
    before = len(world.types())
    with pytest.raises(ClaimRefused) as refused:
        claim_apply(world.the_store(), facts, ClaimPolicy(min_score=1.0), run_id="manual-retry",
                    worker_id="w", model="m", dry_run=False, email=True)  # fmt: skip
    assert refused.value.reason == reason
    assert len(world.types()) == before and len(world.the_smtp().accepted) == 0
