"""Scoring's Temporal activity: ``score_job``, the first step of a JobPreparationWorkflow.

The description and the candidate profile come from ports the composition root implements (the
enriched posting; the versioned profile mapped to scoring evidence).  The Score stage row goes through
the ``StageTracker`` with the workflow as owner; a score already current is reused, never recomputed.
The step answers ``not_eligible`` (ending the chain without failing it) when the fit is below
``min_score``, a requirement blocks or the posting states no requirements to match.  Then the stages
that will not run (Tailor, Cover) are recorded ``StageSkipped`` with a bounded reason code
(``no_requirements``, ``below_min_fit_score``, ``requirement_blocked``, ``not_scored``) so no row
stays Pending for ever; a Score row that started and found nothing to score is settled as canceled
with ``no_requirements`` (the table has no Running -> Skipped), never failed.  A sync activity (the
worker's thread pool).
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import activity

from jobctrl.activity_contracts.contracts import PreparationStepInput, PreparationStepResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.stage_tracking import StageTracker, owner_from_activity
from jobctrl.activity_contracts.threads import heartbeating
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.llm import LlmPort
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.domain.ledger import Fit
from jobctrl.scoring.ports import DescriptionSource, ProfileSource
from jobctrl.scoring.use_cases.score_job import NoRequirementsError, ScoreJob, score_job

# The stages a not-eligible job will never run; the preparation chain ends at Score.
SKIPPED_WHEN_NOT_ELIGIBLE: tuple[Stage, ...] = ("tailor", "cover")
NO_REQUIREMENTS = "no_requirements"


def _verdict_of(score: JobScore | None, min_score: int) -> tuple[str, str] | None:
    """``(reason, code)`` of why the score makes the job not eligible; None when it is eligible."""
    if score is None or score.fit_score is None:
        return "not scored", "not_scored"
    if score.breakdown is not None and any(r.fit is Fit.BLOCKED for r in score.breakdown.requirements):
        return "a requirement blocks", "requirement_blocked"
    if score.fit_score < min_score:
        return f"fit {score.fit_score} below {min_score}", "below_min_fit_score"
    return None


def _load_score(store: EventStore, job_id: str) -> JobScore | None:
    return AggregateRepository.for_class(store, JobScore).load(job_id)


def eligibility(store: EventStore, job_id: str, min_score: int) -> str | None:
    """None when the job's current score makes it eligible; else the reason it is not."""
    return eligibility_of(_load_score(store, job_id), min_score)


def eligibility_of(score: JobScore | None, min_score: int) -> str | None:
    """:func:`eligibility` of a score the caller read as stored now (ADR 0396)."""
    verdict = _verdict_of(score, min_score)
    return None if verdict is None else verdict[0]


def ineligibility_code(store: EventStore, job_id: str, min_score: int) -> str | None:
    """The bounded code of :func:`eligibility`'s verdict (None when eligible)."""
    verdict = _verdict_of(_load_score(store, job_id), min_score)
    return None if verdict is None else verdict[1]


class ScoringActivities:
    def __init__(
        self,
        store: EventStore,
        *,
        llm: LlmPort,
        descriptions: DescriptionSource,
        profile: ProfileSource,
        tracker: StageTracker,
        clock: Clock,
        min_score: int | Callable[[], int] = 7,
    ) -> None:
        self.store = store
        self.llm = llm
        self.descriptions = descriptions
        self.profile = profile
        self.tracker = tracker
        self.clock = clock
        self._min_score = min_score

    @property
    def min_score(self) -> int:
        """The threshold, re-read on every verdict when given as a callable (the saved settings)."""
        return self._min_score() if callable(self._min_score) else self._min_score

    def _skip_rest(self, tracker: StageTracker, job_id: str, code: str) -> None:
        for stage in SKIPPED_WHEN_NOT_ELIGIBLE:
            tracker.skip(job_id, stage, code)  # only a Pending row moves; idempotent on retry

    def _verdict(self, tracker: StageTracker, job_id: str) -> PreparationStepResult:
        verdict = _verdict_of(_load_score(self.store, job_id), self.min_score)  # one load for both
        if verdict is None:
            return PreparationStepResult("done")
        reason, code = verdict
        self._skip_rest(tracker, job_id, code)
        return PreparationStepResult("not_eligible", reason)

    @activity.defn(name="score_job")
    def score_job(self, params: PreparationStepInput) -> PreparationStepResult:
        with heartbeating():  # a model may take longer than the heartbeat timeout to answer
            return self._score(params)

    def _score(self, params: PreparationStepInput) -> PreparationStepResult:
        owner = owner_from_activity()
        # The score and the stage rows are written under the preparation workflow's tenant.
        tracker = self.tracker.for_tenant(params.tenant_id)
        try:
            if not tracker.begin(params.job_id, "score", owner):
                return self._verdict(tracker, params.job_id)  # scored already: reuse
            try:
                description, profile = self.descriptions(params.job_id), self.profile()
                if not description or profile is None:
                    raise MissingInputError(f"job {params.job_id} needs a description and a profile to score")
                score_job(
                    ScoreJob(params.job_id, description, profile),
                    store=self.store,
                    llm=self.llm,
                    clock=self.clock,
                    tenant_id=params.tenant_id,
                )
            except NoRequirementsError as exc:
                # Nothing to match against: the chain ends without failing.  The running Score row is
                # settled (canceled, reason no_requirements) and the stages after it are skipped.
                tracker.skip(params.job_id, "score", NO_REQUIREMENTS)
                self._skip_rest(tracker, params.job_id, NO_REQUIREMENTS)
                return PreparationStepResult("not_eligible", exc.code)
            except JobCtrlError as exc:
                tracker.fail(params.job_id, "score", owner, exc)
                raise
            tracker.succeed(params.job_id, "score", owner)
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return self._verdict(tracker, params.job_id)
