"""Steps about apply runs in the browser: dry and live claims, racing claims, real Chromium runs
against the local job site and what the site received."""

from __future__ import annotations

import contextlib
import threading

from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError
from pytest_bdd import given, parsers, then, when

from jobctrl.apply.adapters.browser import PlaywrightBrowserApply
from jobctrl.apply.ports import FormFilled
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.testing.apply_site.site import LocalJobSite

from .world import World, _dry_run, _run


@given(parsers.parse('a dry run of "{job}" completed with {coverage} coverage'))
def dry_run_done(world: World, job: str, coverage: str) -> None:
    missing = () if coverage == "full" else ("phone",)
    _dry_run(world, job, FormFilled(filled=("email",), missing=missing, blocked_attempts=0))


@given(parsers.parse('a live run of "{job}" was claimed'))
@when(parsers.parse('a live run of "{job}" is claimed'))
def live_claim(world: World, job: str) -> None:
    run = world.next_run(job)
    world.attempt(lambda: world.claim(job, run, dry_run=False))


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
    world.attempt(lambda: _run(world, job, run, PlaywrightBrowserApply(chromium, settle_ms=400)))


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
