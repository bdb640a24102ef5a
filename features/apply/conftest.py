"""Shared fixtures and outcome steps of the Apply features (one Chromium per module and one job site
per session).  The other shared steps live by concern in the sibling modules imported below:
pytest-bdd registers each step as a fixture in the module that defines it, so importing them here
makes them visible to every scenario in this folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright
from pytest_bdd import parsers, then

from jobctrl.apply.adapters.browser import launch_chromium
from jobctrl.apply.domain.errors import ApprovalRefused, ClaimRefused
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.testing.apply_site.site import LocalJobSite

from .steps_email import *  # noqa: F403 (registers the email and recovery steps)
from .steps_review import *  # noqa: F403 (registers the review steps)
from .steps_runs import *  # noqa: F403 (registers the browser-run steps)
from .world import Inbox, PortZeroController, World


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


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    controller = PortZeroController(inbox, hostname="127.0.0.1", port=0)
    controller.start()
    try:
        yield inbox, int(controller.port)
    finally:
        controller.stop()


@pytest.fixture
def world(store: EventStore, tmp_path: Path) -> World:
    resume = tmp_path / "resume.pdf"
    resume.write_bytes(b"%PDF-1.4 resume")
    return World(store=store, resume=resume)


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
