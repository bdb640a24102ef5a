"""Steps of features/materials/tailoring_per_posting.feature: the production chain without Temporal —
the saved profile through ``save_profile``, Score's use case over ``JobFacts.description`` and
``scoring_profile`` (offline extraction), then Tailor's use case over ``JobFacts.materials_inputs``
(the posting's requirements from the score's ledger) with the offline materials writer."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import NullSpendRecorder, OfflineProvider
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.domain.documents import Origin, TailoredResume, decode_resume
from jobctrl.materials.domain.evidence import EvidenceIndex
from jobctrl.materials.domain.fabrication import unsupported_claims
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.materials.use_cases.tailor_resume import TailorResume, TailorStatus, tailor_resume
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
from jobctrl.runtime.composition.facts import JobFacts
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.scoring.adapters.offline_rules import register_offline_scoring
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job

scenarios("materials/tailoring_per_posting.feature")

AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@dataclass
class Search:
    store: EventStore
    facts: JobFacts
    artifacts: ArtifactStore
    clock: FixedClock
    jobs: list[str] = field(default_factory=list)
    resumes: dict[str, TailoredResume] = field(default_factory=dict)


@pytest.fixture
def search(database: Database, tmp_path: Path) -> Search:
    store = EventStore(database, registry())
    store.create_schema()
    clock = FixedClock(AT)
    artifacts = ArtifactStore(tmp_path / "artifacts")
    facts = JobFacts(
        store, artifacts=artifacts, tracker=StageTrackerService(store, clock=clock), clock=clock, min_score=1
    )
    return Search(store, facts, artifacts, clock)


@given("the candidate's saved profile is the sample profile")
def saved_profile(search: Search) -> None:
    save_profile(search.store, to_document(dict(SAMPLE_PROFILE)), clock=search.clock)


@given(parsers.parse('a posting "{job_id}" at "{employer}" that requires "{requirement}"'))
def a_posting(search: Search, job_id: str, employer: str, requirement: str) -> None:
    text = f"Platform Engineer\n\nRequirements:\n- {requirement}\n\nAbout us: a small team.\n"
    event = JobDiscovered(
        job_id=job_id,
        posting_url=f"https://jobs.example/{job_id}",
        source="sample",
        employer=employer,
        metadata={"title": "Platform Engineer", "description": text},
        discovered_at="2026-03-01T09:00:00.000Z",
    )
    search.store.append(f"discovery-{job_id}", None, [NewEvent.of(event, occurred_at=AT)])
    search.jobs.append(job_id)


@when("both postings are scored and their resumes tailored, as the worker does")
@when("the posting is scored and its resume tailored, as the worker does")
def score_and_tailor(search: Search) -> None:
    llm = OfflineProvider(NullSpendRecorder())
    register_offline_scoring(llm)
    for job_id in search.jobs:
        description, candidate = search.facts.description(job_id), search.facts.scoring_profile()
        assert description is not None and candidate is not None
        score_job(ScoreJob(job_id, description, candidate), store=search.store, llm=llm, clock=search.clock)
        inputs = search.facts.materials_inputs(job_id)
        assert inputs is not None and inputs[1].requirements, "the posting reaches Tailor with requirements"
        outcome = tailor_resume(
            TailorResume(*inputs),
            store=search.store, llm=OfflineMaterialsWriter(), artifacts=search.artifacts, clock=search.clock,
        )  # fmt: skip
        assert outcome.status is TailorStatus.APPROVED, outcome.validation_errors
        assert outcome.artifact_id is not None
        data = search.artifacts.get(outcome.artifact_id, ArtifactKind.RESUME_JSON)[1]
        search.resumes[job_id] = decode_resume(data)


def _text(resume: TailoredResume) -> list[str]:
    return [line.text for line in resume.provenance()]


@then("the two resumes differ")
def resumes_differ(search: Search) -> None:
    first, second = (search.resumes[j] for j in search.jobs)
    assert _text(first) != _text(second)


@then(parsers.parse('the bullets of "{experience}" for "{job_id}" are "{bullets}"'))
def bullets_are(search: Search, experience: str, job_id: str, bullets: str) -> None:
    [exp] = [e for e in search.resumes[job_id].experiences if e.experience_id == experience]
    assert [fid for line in exp.bullets for fid in line.fact_ids] == [b.strip() for b in bullets.split(",")]


@then(parsers.parse('the skills of "{job_id}" start with "{line}"'))
def skills_start(search: Search, job_id: str, line: str) -> None:
    assert search.resumes[job_id].skills[0].text == line


@then("every line of both resumes quotes a fact of the profile and passes the fabrication check")
def truthful(search: Search) -> None:
    profile = search.facts.materials_inputs(search.jobs[0])
    assert profile is not None
    index = EvidenceIndex(profile[0])

    candidate = profile[0]
    facts = {s.text for s in candidate.summary} | {b.text for e in candidate.experiences for b in e.bullets}
    skills = {s.casefold() for c in candidate.skills for s in c.skills}
    for resume in search.resumes.values():
        for line in resume.provenance():
            assert unsupported_claims(line.text, index.for_facts(line.fact_ids)) == [], line
            if line.origin is Origin.MODEL and line.line_id.startswith("skills/"):
                listed = line.text.split(": ", 1)[1].split(", ")
                assert {s.casefold() for s in listed} <= skills, line
            elif line.origin is Origin.MODEL:
                assert line.text in facts, line


@then(parsers.parse('the resume of "{job_id}" maps "{requirement}" to "{fact_ids}"'))
def maps_requirement(search: Search, job_id: str, requirement: str, fact_ids: str) -> None:
    mapped = {c.requirement: c.fact_ids for c in search.resumes[job_id].claim_mappings}
    assert mapped[requirement] == [f.strip() for f in fact_ids.split(",")]
