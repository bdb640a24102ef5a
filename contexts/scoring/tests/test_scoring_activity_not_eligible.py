"""score_job ends a not-eligible preparation through the stage tracker without failing (ADR 0071):
Tailor and Cover are skipped with a bounded reason; a posting without requirements never fails Score."""

from __future__ import annotations

from datetime import UTC, datetime

from temporalio.testing import ActivityEnvironment

from jobctrl.activity_contracts.contracts import PreparationStepInput
from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import NullSpendRecorder, OfflineProvider
from jobctrl.scoring.activities import ScoringActivities
from jobctrl.scoring.adapters.offline_rules import register_offline_scoring
from jobctrl.scoring.domain.profile import CandidateProfile, EvidenceItem, EvidenceKind

POSTING = """Senior Backend Engineer

Requirements:
- 5+ years of Python experience
- Experience with PostgreSQL and AWS
"""
NO_REQUIREMENTS = "We are a friendly team. Come say hello."


class RecordingTracker:
    """The StageTracker port, recording what the activity asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.tenants: list[str] = []

    def for_tenant(self, tenant_id: str) -> RecordingTracker:
        self.tenants.append(tenant_id)
        return self

    def begin(self, job_id: str, stage: Stage, owner: StepOwner) -> bool:
        self.calls.append(("begin", stage, ""))
        return True

    def succeed(self, job_id: str, stage: Stage, owner: StepOwner) -> None:
        self.calls.append(("succeed", stage, ""))

    def fail(self, job_id: str, stage: Stage, owner: StepOwner, error: JobCtrlError) -> None:
        self.calls.append(("fail", stage, error.code))

    def skip(self, job_id: str, stage: Stage, reason: str) -> None:
        self.calls.append(("skip", stage, reason))

    def succeeded(self, job_id: str, stage: Stage) -> bool:
        return False


def _profile() -> CandidateProfile:
    items = (
        EvidenceItem(id="skill-python", kind=EvidenceKind.SKILL, text="Python"),
        EvidenceItem(id="exp-1", kind=EvidenceKind.EXPERIENCE, text="Built Python services", years=6),
        EvidenceItem(id="auth-1", kind=EvidenceKind.AUTHORIZATION, text="Authorized to work in the US"),
    )
    return CandidateProfile(profile_version=1, total_years_experience=6, evidence=items)


def _activities(
    database: Database, description: str, min_score: int
) -> tuple[ScoringActivities, RecordingTracker]:
    store = EventStore(database, registry())
    store.create_schema()
    llm = OfflineProvider(NullSpendRecorder())
    register_offline_scoring(llm)
    tracker = RecordingTracker()
    acts = ScoringActivities(
        store, llm=llm, descriptions=lambda _job: description, profile=_profile, tracker=tracker,
        clock=FixedClock(datetime(2026, 11, 30, 7, 0, tzinfo=UTC)), min_score=min_score,
    )  # fmt: skip
    return acts, tracker


def _run(acts: ScoringActivities) -> tuple[str, str | None]:
    result = ActivityEnvironment().run(
        acts.score_job, PreparationStepInput("local", "job-1", "score", None, "k")
    )
    return result.status, result.reason


def test_below_the_minimum_fit_skips_tailor_and_cover(database: Database) -> None:
    acts, tracker = _activities(database, POSTING, 11)  # above any fit (0-10)
    status, _ = _run(acts)
    assert status == "not_eligible"
    assert ("succeed", "score", "") in tracker.calls
    assert [c for c in tracker.calls if c[0] == "skip"] == [
        ("skip", "tailor", "below_min_fit_score"),
        ("skip", "cover", "below_min_fit_score"),
    ]


def test_an_eligible_job_skips_nothing(database: Database) -> None:
    acts, tracker = _activities(database, POSTING, 0)
    assert _run(acts)[0] == "done"
    assert not [c for c in tracker.calls if c[0] in ("skip", "fail")]


def test_no_requirements_ends_the_chain_without_failing_score(database: Database) -> None:
    acts, tracker = _activities(database, NO_REQUIREMENTS, 0)
    status, reason = _run(acts)
    assert (status, reason) == ("not_eligible", "score_no_requirements")
    assert not [c for c in tracker.calls if c[0] == "fail"]
    assert [c for c in tracker.calls if c[0] == "skip"] == [
        ("skip", "score", "no_requirements"),
        ("skip", "tailor", "no_requirements"),
        ("skip", "cover", "no_requirements"),
    ]


def test_the_score_and_its_stage_rows_go_under_the_workflows_tenant(database: Database) -> None:
    acts, tracker = _activities(database, POSTING, 0)
    result = ActivityEnvironment().run(
        acts.score_job, PreparationStepInput("acme", "job-1", "score", None, "k")
    )
    assert result.status == "done" and tracker.tenants == ["acme"]
    written = acts.store.read_all(limit=1000)
    assert written and {e.tenant_id for e in written} == {"acme"}
