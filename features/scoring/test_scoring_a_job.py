"""Steps for scoring_a_job.feature."""

from __future__ import annotations

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.llm import NullSpendRecorder, OfflineProvider, StructuredRequest
from jobctrl.scoring.domain.formula import compute_fit
from jobctrl.scoring.domain.ledger import CLAIMING_FITS, Fit, LedgerRow, ScoreBreakdown
from jobctrl.scoring.events import JobScored
from jobctrl.scoring.ports import (
    MATCH_TASK,
    SCORE_PROMPT_VERSION,
    EvidenceMatch,
    EvidenceMatching,
    RequirementExtraction,
)
from jobctrl.scoring.use_cases import score_job as score_job_module
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job

from .conftest import World, is_scored, profile, scored_events

scenarios("scoring/scoring_a_job.feature")


def _latest(store: EventStore, job_id: str = "job-1") -> JobScored:
    scored = [e for e in scored_events(store, job_id) if isinstance(e, JobScored)]
    return scored[-1]


def _ledger(store: EventStore) -> list[LedgerRow]:
    return list(msgspec.convert(_latest(store).breakdown, ScoreBreakdown).requirements)


@given(parsers.parse('the candidate is authorized to work in the "{country}" only'))
def authorized_only_in(world: World, country: str) -> None:
    world.candidate = profile(authorized_in=country)


@given("the candidate has no work authorization on file")
def no_authorization(world: World) -> None:
    world.candidate = profile(authorized_in=None)


@given(parsers.parse('the provider cites evidence "{evidence_id}" for every requirement'))
def rogue_provider(llm: OfflineProvider, evidence_id: str) -> None:
    def handler(request: StructuredRequest[EvidenceMatching]) -> EvidenceMatching:
        extraction = RequirementExtraction.model_validate(request.context["requirements"])
        return EvidenceMatching(
            matches=[
                EvidenceMatch(requirement_index=i, fit=Fit.DIRECT, evidence_ids=[evidence_id])
                for i in range(len(extraction.requirements))
            ]
        )

    llm.register(MATCH_TASK, EvidenceMatching, handler)


@when(parsers.parse('job "{job_id}" is scored with an empty description'))
def scored_empty(
    store: EventStore, llm: OfflineProvider, clock: FixedClock, world: World, job_id: str
) -> None:
    world.head_before = store.head_position()
    world.attempt(lambda: score_job(ScoreJob(job_id, "   ", profile()), store=store, llm=llm, clock=clock))


@then(parsers.parse('requirement "{text}" is "{fit}" citing "{evidence}"'))
def requirement_cites(store: EventStore, text: str, fit: str, evidence: str) -> None:
    [row] = [r for r in _ledger(store) if r.text == text]
    assert row.fit is Fit(fit)
    assert evidence in row.evidence_ids


@then(parsers.parse('requirement "{text}" is "{fit}" citing nothing'))
def requirement_bare(store: EventStore, text: str, fit: str) -> None:
    [row] = [r for r in _ledger(store) if r.text == text]
    assert row.fit is Fit(fit)
    assert row.evidence_ids == ()


@then(parsers.parse('the keywords include "{words}"'))
def keywords(store: EventStore, words: str) -> None:
    assert set(words.split(", ")) <= set(_latest(store).keywords)


@then("the recorded fit score follows the formula from the ledger")
def follows_formula(store: EventStore) -> None:
    event = _latest(store)
    assert event.fit_score == compute_fit(_ledger(store)).score
    assert event.fit_band in {"strong", "good", "stretch", "weak"}


@then("the score is at most 4 and the job is marked ineligible")
def capped(store: EventStore) -> None:
    event = _latest(store)
    assert event.fit_score <= 4
    assert event.eligibility is not None and event.eligibility["blocked"] is True
    breakdown = msgspec.convert(event.breakdown, ScoreBreakdown)
    assert breakdown.raw_score > 4 and breakdown.capped_by_blocker


@then("the job is not marked ineligible")
def not_blocked(store: EventStore) -> None:
    event = _latest(store)
    assert event.eligibility is not None and event.eligibility["blocked"] is False
    assert not any(r.fit is Fit.BLOCKED for r in _ledger(store))


@then(parsers.parse('no ledger row cites "{evidence_id}"'))
def no_row_cites(store: EventStore, evidence_id: str) -> None:
    rows = _ledger(store)
    assert rows and all(evidence_id not in r.evidence_ids for r in rows)


@then("no requirement is claimed as met without evidence")
def nothing_claimed_without_evidence(store: EventStore) -> None:
    rows = _ledger(store)
    assert rows, "the ledger is empty: the rule would hold vacuously"
    # Every citation was invented, so no row may keep a claiming fit once they are dropped.
    assert [r.text for r in rows if r.fit in CLAIMING_FITS and not r.evidence_ids] == []
    assert [r.text for r in rows if r.fit in CLAIMING_FITS] == []


@then(parsers.parse('{count:d} model calls were reported with model "{model}" and positive token counts'))
def usage_reported(spend: NullSpendRecorder, count: int, model: str) -> None:
    assert len(spend.calls) == count
    assert all(c.model == model and c.input_tokens > 0 and c.output_tokens > 0 for c in spend.calls)


@given(parsers.parse('job "{job_id}" was scored under the scoring prompts "{version}"'))
def scored_under_earlier_prompts(
    store: EventStore,
    llm: OfflineProvider,
    clock: FixedClock,
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    job_id: str,
    version: str,
) -> None:
    """As the code of that version did: the same use case, with the prompts' version it carried then."""
    with monkeypatch.context() as patch:
        patch.setattr(score_job_module, "SCORE_PROMPT_VERSION", version)
        is_scored(store, llm, clock, world, job_id)
    assert world.error is None
    assert msgspec.convert(_latest(store, job_id).breakdown, ScoreBreakdown).prompt_version == version


@then(parsers.parse('the current score of job "{job_id}" was made under the current scoring prompts'))
def made_under_current_prompts(store: EventStore, job_id: str) -> None:
    breakdown = msgspec.convert(_latest(store, job_id).breakdown, ScoreBreakdown)
    assert breakdown.prompt_version == SCORE_PROMPT_VERSION == "score-fit-assessment-jobctrl-v2"
