"""The scaled sample board (``scaled_postings``): the sample's 69 postings plus synthetic employers,
deterministic, every synthetic posting a distinct job by dedupe's own rules, served and discovered
through the real activities."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from temporalio.testing import ActivityEnvironment

from jobctrl.activity_contracts.contracts import PlanSourcesInput, ProgressTick, SourceFamilyInput
from jobctrl.discovery.domain.content import SHINGLE_JACCARD_THRESHOLD, content_fingerprint, jaccard, shingles
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import (
    MAX_SCALED_POSTINGS,
    SAMPLE_POSTINGS,
    scaled_postings,
)
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.discovery_activities import local_discovery_activities


def test_the_unscaled_board_is_the_sample_itself() -> None:
    assert scaled_postings(len(SAMPLE_POSTINGS)) == SAMPLE_POSTINGS
    with SampleJobBoard() as plain, SampleJobBoard(postings=scaled_postings(len(SAMPLE_POSTINGS))) as same:
        assert [(s.source_id, s.employer) for s in plain.sources()] == [
            (s.source_id, s.employer) for s in same.sources()
        ]
        assert len(plain.sources()) == 11  # ten boards (six formats) and Northwind's own career page


@pytest.mark.parametrize("total", [0, len(SAMPLE_POSTINGS) - 1, MAX_SCALED_POSTINGS + 1])
def test_an_impossible_size_is_refused(total: int) -> None:
    with pytest.raises(ValueError, match="scaled sample board holds"):
        scaled_postings(total)


def test_a_thousand_postings_are_deterministic_and_distinct_jobs() -> None:
    postings = scaled_postings(1000)
    assert len(postings) == 1000 and postings == scaled_postings(1000)
    assert postings[: len(SAMPLE_POSTINGS)] == SAMPLE_POSTINGS
    assert len({(p.format, p.board, p.native_id) for p in postings}) == 1000
    synthetic = postings[len(SAMPLE_POSTINGS) :]
    assert len({content_fingerprint(p.title, p.employer, p.description) for p in synthetic}) == len(synthetic)
    by_employer: dict[str, list[frozenset[str]]] = {}
    for p in synthetic:
        found = shingles(p.description)
        assert found is not None  # long enough to be compared
        by_employer.setdefault(p.employer, []).append(found)
    assert not set(by_employer) & {p.employer for p in SAMPLE_POSTINGS}
    closest = max(
        jaccard(a, b) for group in by_employer.values() for a, b in itertools.combinations(group, 2)
    )
    assert closest < SHINGLE_JACCARD_THRESHOLD


def test_discovery_over_a_scaled_board_finds_every_synthetic_posting_as_a_new_job(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    clock = FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    extra = 40
    with SampleJobBoard(postings=scaled_postings(len(SAMPLE_POSTINGS) + extra)) as board:
        sample_employers = {p.employer for p in SAMPLE_POSTINGS}
        sources = [s for s in board.sources() if s.employer not in sample_employers]
        assert len(sources) == 5  # forty postings: five synthetic employers of eight roles
        register_sources(store, sources, clock=clock)
        acts = local_discovery_activities(store, lambda: sources, clock)
        execution = ExecutionRef("local", "discover-local", "run-1")
        run: Callable[..., object] = ActivityEnvironment().run
        plan = run(acts.plan_discovery_sources, PlanSourcesInput(execution, []))
        families: list[str] = plan.families  # type: ignore[attr-defined]
        new = 0
        for family in families:
            result = run(
                acts.discovery_source_family, SourceFamilyInput(execution, family, ProgressTick(0, 0))
            )
            new += result.new_jobs  # type: ignore[attr-defined]
    assert new == extra
    assert len(store.read_all(types=["JobDiscovered"])) == extra
