"""Discovery's activities in an ActivityEnvironment against the local sample board: the plan groups
runnable sources into families and starts the run; a family links its jobs to the execution; a family
whose every source fails surfaces the source's own error code, not a generic one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from jobctrl.activity_contracts.contracts import PlanSourcesInput, ProgressTick, SourceFamilyInput
from jobctrl.discovery.activities import DiscoveryActivities
from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.use_cases.link_execution_members import load_execution
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.discovery_activities import local_discovery_activities

EXECUTION = ExecutionRef("local", "discover-local", "run-1")


def _activities(store: EventStore, sources: list[SourceConfig]) -> DiscoveryActivities:
    clock = FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    return local_discovery_activities(store, lambda: sources, clock)


def test_plan_then_family_links_the_observed_jobs(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    with SampleJobBoard() as board:
        sources = [
            s for s in board.sources() if s.source_id in ("lever-initech", "ashby-hooli", "ashby-piedpiper")
        ]
        register_sources(store, sources, clock=FixedClock(datetime(2026, 3, 1, tzinfo=UTC)))
        acts = _activities(store, sources)
        run: Callable[..., object] = ActivityEnvironment().run
        plan = run(acts.plan_discovery_sources, PlanSourcesInput(EXECUTION, []))
        assert plan.families == ["ashby", "lever"]  # type: ignore[attr-defined]
        result = run(acts.discovery_source_family, SourceFamilyInput(EXECUTION, "ashby", ProgressTick(0, 4)))
    assert result.observed_jobs == 14 and result.new_jobs == 14  # type: ignore[attr-defined]
    members = load_execution(store, ExecutionRef("local", "discover-local", "run-1"), acts.clock).members
    assert len(members) == 14 and {m.cohort for m in members.values()} == {"observed_this_run"}


def test_a_family_whose_sources_all_fail_surfaces_their_own_code(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    with SampleJobBoard() as board:
        dead = board.base_url
    sources = [SourceConfig("lever-gone", "lever", "gone", "Gone Inc", dead)]
    register_sources(store, sources, clock=FixedClock(datetime(2026, 3, 1, tzinfo=UTC)))
    run: Callable[..., object] = ActivityEnvironment().run
    with pytest.raises(ApplicationError) as caught:
        run(
            _activities(store, sources).discovery_source_family,
            SourceFamilyInput(EXECUTION, "lever", ProgressTick(0, 0)),
        )
    assert caught.value.type not in (None, "unclassified", "source_unavailable_generic")
    assert "lever-gone=" + str(caught.value.type) in caught.value.message
    assert store.read_all(types=["JobDiscovered"]) == []
