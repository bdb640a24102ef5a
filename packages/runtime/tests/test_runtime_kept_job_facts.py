"""``KeptJobFacts``: the score, enrichment and discovery of a job the activities read are kept while
their streams are unchanged, checked in one statement on every use, and a write by another process
is seen at the next use (ADR 0396)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from jobctrl.activity_contracts.stage_tracking import NoStageTracking
from jobctrl.discovery import Job
from jobctrl.enrichment.events import JobEnriched
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore
from jobctrl.materials import ArtifactStore
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.runtime.composition.facts import JobFacts
from jobctrl.runtime.composition.kept import current_versions
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.scoring.domain.ledger import ScoreBreakdown
from jobctrl.scoring.events import JobScored

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _facts(store: EventStore, tmp_path: Path) -> JobFacts:
    return JobFacts(
        store, artifacts=ArtifactStore(tmp_path / "artifacts"), tracker=NoStageTracking(),
        clock=SystemClock(), min_score=5,
    )  # fmt: skip


def _discover(store: EventStore, job_id: str, metadata: dict[str, Any]) -> None:
    job = Job(job_id)
    job.discover(posting_url=f"https://jobs.example/{job_id}", source="lever", employer="Acme",
                 metadata=metadata, at="2026-03-01T09:00:00Z")  # fmt: skip
    AggregateRepository.for_class(store, Job).save(job)


def _score(store: EventStore, job_id: str, version: int, fit: int, keywords: list[str]) -> None:
    breakdown = ScoreBreakdown(formula="f", policy_version=1, profile_version=1, posting_hash="h",
                               weighted_fit=float(fit), raw_score=fit, capped_by_blocker=False,
                               requirements=())  # fmt: skip
    event = JobScored(job_id=job_id, fit_score=float(fit), breakdown=msgspec.to_builtins(breakdown),
                      keywords=keywords, version=version, scored_at="2026-12-01T09:00:00Z")  # fmt: skip
    store.append(f"score-{job_id}", version - 1, [NewEvent.of(event, occurred_at=NOW)])


def _enrich(store: EventStore, job_id: str, text: str, expected: int) -> None:
    event = JobEnriched(job_id=job_id, full_description=text, application_url="", extraction_tier="json_ld",
                        enriched_at="2026-12-01T09:00:00Z")  # fmt: skip
    store.append(f"enrich-{job_id}", expected, [NewEvent.of(event, occurred_at=NOW)])


def test_unchanged_facts_are_read_once_and_a_write_elsewhere_is_seen_at_the_next_use(
    store: EventStore, other_store: EventStore, tmp_path: Path
) -> None:
    facts = _facts(store, tmp_path)
    _discover(other_store, "j1", {"title": "Engineer", "description": "<p>The board's text</p>"})

    assert facts.eligible("j1") == "not scored"
    assert facts.description("j1") == "The board's text"
    loads = facts.kept.loads
    for _ in range(3):  # unchanged streams: every use is one statement, no read of a fold or a fact
        assert facts.eligible("j1") == "not scored"
        assert facts.description("j1") == "The board's text"
    assert facts.kept.loads == loads

    _score(other_store, "j1", 1, 8, ["python"])  # another process scores the job
    assert facts.eligible("j1") is None
    assert facts.keywords("j1") == ["python"]
    _score(other_store, "j1", 2, 2, ["sql"])  # and scores it again, lower
    assert facts.eligible("j1") == "fit 2 below 5"
    assert facts.keywords("j1") == ["sql"]

    _enrich(other_store, "j1", "The posting page's own text", 0)
    assert facts.description("j1") == "The posting page's own text"
    _enrich(other_store, "j1", "The page, edited", 1)
    assert facts.enriched_description("j1") == "The page, edited"
    assert facts.description("j1") == "The page, edited"


def test_the_materials_inputs_check_the_profile_score_enrichment_and_discovery_together(
    store: EventStore, other_store: EventStore, tmp_path: Path
) -> None:
    facts = _facts(store, tmp_path)
    assert facts.materials_inputs("j2") is None  # no profile, no job
    save_profile(other_store, to_document(dict(SAMPLE_PROFILE)))
    assert facts.materials_inputs("j2") is None  # still no job
    _discover(other_store, "j2", {"title": "Engineer", "description": "Board text"})
    _score(other_store, "j2", 1, 8, ["python"])

    found = facts.materials_inputs("j2")
    assert found is not None
    profile, posting = found
    assert profile.version == 1 and posting.role_title == "Engineer" and posting.keywords == ["python"]
    assert posting.description == "Board text"
    loads, profile_loads = facts.kept.loads, facts.profiles.loads
    assert facts.materials_inputs("j2") == found
    assert (facts.kept.loads, facts.profiles.loads) == (loads, profile_loads)

    save_profile(other_store, to_document({**SAMPLE_PROFILE, "headline": "Staff backend engineer"}))
    _score(other_store, "j2", 2, 9, ["rust"])
    _enrich(other_store, "j2", "The posting page", 0)
    again = facts.materials_inputs("j2")
    assert again is not None
    assert again[0].version == 2 and again[0].headline == "Staff backend engineer"
    assert again[1].keywords == ["rust"] and again[1].description == "The posting page"


def test_the_versions_statement_answers_absent_streams_and_facts_as_zero(store: EventStore) -> None:
    assert current_versions(store, ["score-none", "enrich-none"], "none") == {
        "score-none": 0,
        "enrich-none": 0,
        "": 0,
    }
    _discover(store, "j3", {})
    _score(store, "j3", 1, 7, [])
    _score(store, "j3", 2, 6, [])
    found = current_versions(store, ["score-j3", "enrich-j3"], "j3")
    assert found["score-j3"] == 2 and found["enrich-j3"] == 0 and found[""] > 0
    assert current_versions(store, [], None) == {}
