"""Scoring through the instructor provider over real HTTP: provider output is untrusted data."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import msgspec
import pytest
from pydantic import SecretStr

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.llm import InstructorProvider, LlmOutputInvalidError, LlmSettings, NullSpendRecorder
from jobctrl.scoring.domain.ledger import Fit, ScoreBreakdown
from jobctrl.scoring.domain.profile import CandidateProfile, EvidenceItem, EvidenceKind
from jobctrl.scoring.events import JobScored
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job
from jobctrl.testing.llm_server import Canned, FakeOpenAI, fake_openai_server, tool_call_completion

PROFILE = CandidateProfile(
    profile_version=1,
    total_years_experience=4,
    evidence=(
        EvidenceItem(id="skill-python", kind=EvidenceKind.SKILL, text="Python"),
        EvidenceItem(id="exp-1", kind=EvidenceKind.EXPERIENCE, text="Ran Kafka pipelines", years=3),
    ),
)
EXTRACTION = {
    "requirements": [
        {"text": "Python", "tier": "must_have", "kind": "skill", "weight": 2, "keywords": ["python"]},
        {"text": "Kafka", "tier": "nice_to_have", "kind": "skill", "weight": 1, "keywords": ["kafka"]},
        {"text": "Go", "tier": "must_have", "kind": "skill", "weight": 1, "keywords": []},
    ]
}


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with fake_openai_server() as state:
        yield state


def _provider(server: FakeOpenAI, spend: NullSpendRecorder) -> InstructorProvider:
    return InstructorProvider(
        LlmSettings(
            provider="openai_compatible",
            model="gpt-4o-mini",
            base_url=server.base_url,
            api_key=SecretStr("sk-local"),
            timeout_seconds=5,
        ),
        spend,
    )


def test_a_job_scored_through_instructor_records_the_sanitized_ledger(
    server: FakeOpenAI, store: EventStore
) -> None:
    spend = NullSpendRecorder()
    server.responses += [
        Canned(body=tool_call_completion("RequirementExtraction", EXTRACTION, prompt=500, output=80)),
        Canned(
            body=tool_call_completion(
                "EvidenceMatching",
                {
                    "matches": [
                        {"requirement_index": 0, "fit": "direct", "evidence_ids": ["skill-python"]},
                        # cites evidence the profile does not hold: must not count
                        {"requirement_index": 1, "fit": "strong", "evidence_ids": ["made-up"]},
                        {"requirement_index": 2, "fit": "missing", "evidence_ids": []},
                        {"requirement_index": 9, "fit": "direct", "evidence_ids": ["skill-python"]},
                    ]
                },
                prompt=700,
                output=60,
            )
        ),
    ]
    clock = FixedClock(datetime(2026, 3, 1, tzinfo=UTC))
    outcome = score_job(
        ScoreJob("job-1", "Python and Kafka, some Go.", PROFILE),
        store=store,
        llm=_provider(server, spend),
        clock=clock,
    )

    [row] = store.read_all(types=["JobScored"])
    event = store.registry.decode(row)
    assert isinstance(event, JobScored)
    ledger = msgspec.convert(event.breakdown, ScoreBreakdown).requirements
    assert [(r.requirement_id, r.fit, r.evidence_ids) for r in ledger] == [
        ("r1", Fit.DIRECT, ("skill-python",)),
        ("r2", Fit.NOT_ASSESSED, ()),
        ("r3", Fit.MISSING, ()),
    ]
    # earned 2*1.25 = 2.5 of 2.5 + 1 + 1.25 = 4.75 -> 0.526 -> 9*0.526 = 4.74 -> 5 -> score 6
    assert outcome.fit_score == event.fit_score == 6
    assert [(c.model, c.input_tokens, c.output_tokens) for c in spend.calls] == [
        ("gpt-4o-mini", 500, 80),
        ("gpt-4o-mini", 700, 60),
    ]
    assert server.requests[1]["body"]["tools"][0]["function"]["name"] == "EvidenceMatching"


def test_a_malformed_extraction_writes_nothing(server: FakeOpenAI, store: EventStore) -> None:
    bad = {"requirements": [{"text": "Python", "tier": "critical", "kind": "skill", "weight": 99}]}
    server.responses.append(Canned(body=tool_call_completion("RequirementExtraction", bad)))
    spend = NullSpendRecorder()
    clock = FixedClock(datetime(2026, 3, 1, tzinfo=UTC))
    with pytest.raises(LlmOutputInvalidError):
        score_job(
            ScoreJob("job-1", "Python", PROFILE), store=store, llm=_provider(server, spend), clock=clock
        )
    assert store.head_position() == 0
    assert len(spend.calls) == 1  # the failed call is still charged
