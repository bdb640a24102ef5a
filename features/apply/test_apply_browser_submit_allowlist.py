"""Scenarios of features/apply/browser_submit_allowlist.feature.

The live runs go through the real apply activity body (``ApplyActivities._one``, as Temporal runs it
under a workflow run and attempt) with the real Chromium adapter against the local job site, which
counts every submission it receives.  Shared steps are in conftest.py and the steps_*.py modules it imports.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.apply.activities import ApplyActivities, ApplyInputs
from jobctrl.apply.adapters.browser import PlaywrightBrowserApply
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.apply.ports import BrowserApplyPort, FormFilled
from jobctrl.kernel.ids import deterministic_id
from jobctrl.testing.apply_site.site import LocalJobSite

from .world import PROFILE, World, _approve, _dry_run, _materials

scenarios("apply/browser_submit_allowlist.feature")

WORKFLOW_RUN = "apply-workflow-run-1"


@dataclass
class Attempts:
    made: int = 0
    intent_at_post: list[bool] = field(default_factory=list)


@pytest.fixture
def attempts() -> Attempts:
    return Attempts()


@given(parsers.parse('the browser-submit allowlist holds "{host}"'))
def allowlist(world: World, host: str) -> None:
    world.policy = dataclasses.replace(world.policy, browser_submit_hosts=frozenset({host}))


@given(parsers.parse('job "{job}" moved to "{path}" on the local job site, reviewed and approved again'))
def moved(world: World, job_site: LocalJobSite, job: str, path: str) -> None:
    world.facts[job] = dataclasses.replace(world.facts[job], application_url=job_site.url(path))
    _dry_run(world, job, FormFilled(filled=("email",), missing=(), blocked_attempts=0))
    _approve(world, job)


def _activities(world: World, chromium: Browser) -> ApplyActivities:
    def inputs(job: str) -> ApplyInputs:
        return ApplyInputs(facts=world.facts[job], applicant=PROFILE, materials=_materials(world, job))

    def browser() -> BrowserApplyPort:
        return PlaywrightBrowserApply(chromium, settle_ms=200)

    return ApplyActivities(
        world.store, inputs=inputs, candidates=lambda _tenant, _limit: [], policy=lambda: world.policy,
        browser=browser, clock=world.clock,
    )  # fmt: skip


def _attempt(world: World, chromium: Browser, attempts: Attempts, job: str) -> None:
    attempts.made += 1
    owner = StepOwner(f"apply-{job}", WORKFLOW_RUN, attempts.made)
    world.runs[job] = deterministic_id("apply-run", WORKFLOW_RUN, job)
    acts = _activities(world, chromium)
    world.attempt(lambda: acts._one("local", job, False, False, owner))


@when(parsers.parse('the live apply activity of "{job}" runs with the real browser'))
def live_activity(
    world: World, chromium: Browser, job_site: LocalJobSite, attempts: Attempts, job: str
) -> None:
    job_site.reset()
    job_site.on_post = lambda: attempts.intent_at_post.append("ApplySubmitIntended" in world.types())
    _attempt(world, chromium, attempts, job)


@when(parsers.parse('the apply activity of "{job}" is retried'))
def retried(world: World, chromium: Browser, attempts: Attempts, job: str) -> None:
    _attempt(world, chromium, attempts, job)


@then(parsers.parse("the job site received {count:d} submission"))
@then(parsers.parse("the job site received {count:d} submissions"))
def submissions(job_site: LocalJobSite, count: int) -> None:
    assert job_site.counts["post"] == count, dict(job_site.counts)
    assert job_site.counts["websocket"] == 0, dict(job_site.counts)


@then("the submit intent was in the log before the job site received the submission")
def intent_first(attempts: Attempts) -> None:
    assert attempts.intent_at_post == [True]


@then(parsers.parse('the last run of "{job}" left a hand-off for manual completion'))
def handed_off(world: World, job: str) -> None:
    app = world.app(job)
    assert app.run(world.runs[job]).status is RunStatus.BLOCKED
    handoff = app.latest_handoff
    assert handoff is not None and handoff.application_url == world.facts[job].application_url
    assert "email" in {a.field for a in handoff.answers}
