"""Steps for robots.feature and active_state.feature."""

from __future__ import annotations

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.enrichment.domain.readiness import EnrichBlock
from jobctrl.enrichment.events import JobActiveStateChanged
from jobctrl.enrichment.use_cases.change_active_state import ChangeActiveState, change_active_state
from jobctrl.enrichment.use_cases.select_blocked_rows import select_blocked_rows
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore

from .conftest import Site, World, events_of, json_ld_page

pytestmark = pytest.mark.both_databases
scenarios("enrichment/robots.feature", "enrichment/active_state.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@given(parsers.parse('the posting page "{path}" answers 503'))
def page_503(site: Site, path: str) -> None:
    site.pages[path] = (503, "busy")


@given(parsers.parse('the posting page "{path}" carries JobPosting JSON-LD valid through "{day}"'))
def page_expiring(site: Site, path: str, day: str) -> None:
    site.pages[path] = (200, json_ld_page(valid_through=day))


@when(parsers.parse('the robots condition is resolved for source "{source}"'), target_fixture="selected")
def resolve(store: EventStore, source: str) -> list[str]:
    return select_blocked_rows(store, EnrichBlock.ROBOTS_DISALLOWED, source_ids={source})


@then(parsers.parse('exactly "{job_id}" is selected'))
def exactly(selected: list[str], job_id: str) -> None:
    assert selected == [job_id]


@when(parsers.parse('job "{job_id}" is reported "{state}" by "{method}"'))
def reported(
    store: EventStore, clock: FixedClock, world: World, job_id: str, state: str, method: str
) -> None:
    world.changes.append(
        change_active_state(ChangeActiveState(job_id, state, method), store=store, clock=clock)  # type: ignore[arg-type]
    )


@then(parsers.parse('job "{job_id}" changed active state from "{old}" to "{new}"'))
def changed(store: EventStore, job_id: str, old: str, new: str) -> None:
    changes = [e for e in events_of(store, job_id) if isinstance(e, JobActiveStateChanged)]
    assert [(c.previous_state, c.active_state) for c in changes] == [(old, new)]


@then(parsers.parse('job "{job_id}" went through active states "{states}"'))
def went_through(store: EventStore, world: World, job_id: str, states: str) -> None:
    changes = [e.active_state for e in events_of(store, job_id) if isinstance(e, JobActiveStateChanged)]
    assert changes == states.split(",")
    assert world.changes == [True, False]
