"""Scoring's Temporal activity: ``score_job``, the first step of a JobPreparationWorkflow.

The description and the candidate profile come from ports the composition root implements (the
enriched posting; the versioned profile mapped to scoring evidence).  The Score stage row goes through
the ``StageTracker`` with the workflow as owner; a score already current is reused, never recomputed.
The step answers ``not_eligible`` (ending the chain without failing it) when the fit is below
``min_score``, a requirement blocks or the posting states no requirements to match.  A sync activity
(the worker's thread pool).
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import activity

from jobctrl.activity_contracts.contracts import PreparationStepInput, PreparationStepResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.stage_tracking import StageTracker, owner_from_activity
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.kernel.store import EventStore
from jobctrl.llm import LlmPort
from jobctrl.scoring.aggregates import JobScore
from jobctrl.scoring.ledger import Fit
from jobctrl.scoring.profile import CandidateProfile
from jobctrl.scoring.use_cases.score_job import NoRequirementsError, ScoreJob, score_job

DescriptionSource = Callable[[str], str | None]
ProfileSource = Callable[[], CandidateProfile | None]


def eligibility(store: EventStore, job_id: str, min_score: int) -> str | None:
    """None when the job's current score makes it eligible; else the reason it is not."""
    score = AggregateRepository.for_class(store, JobScore).load(job_id)
    if score is None or score.fit_score is None:
        return "not scored"
    if score.breakdown is not None and any(r.fit is Fit.BLOCKED for r in score.breakdown.requirements):
        return "a requirement blocks"
    if score.fit_score < min_score:
        return f"fit {score.fit_score} below {min_score}"
    return None


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
        min_score: int = 7,
    ) -> None:
        self.store = store
        self.llm = llm
        self.descriptions = descriptions
        self.profile = profile
        self.tracker = tracker
        self.clock = clock
        self.min_score = min_score

    def _verdict(self, job_id: str) -> PreparationStepResult:
        reason = eligibility(self.store, job_id, self.min_score)
        return (
            PreparationStepResult("done") if reason is None else PreparationStepResult("not_eligible", reason)
        )

    @activity.defn(name="score_job")
    def score_job(self, params: PreparationStepInput) -> PreparationStepResult:
        owner = owner_from_activity()
        try:
            if not self.tracker.begin(params.job_id, "score", owner):
                return self._verdict(params.job_id)  # scored already: reuse
            try:
                description, profile = self.descriptions(params.job_id), self.profile()
                if not description or profile is None:
                    raise MissingInputError(f"job {params.job_id} needs a description and a profile to score")
                score_job(
                    ScoreJob(params.job_id, description, profile),
                    store=self.store,
                    llm=self.llm,
                    clock=self.clock,
                )
            except NoRequirementsError as exc:
                # Nothing to match against: the row records why, and the chain ends without failing.
                self.tracker.fail(params.job_id, "score", owner, exc)
                return PreparationStepResult("not_eligible", exc.code)
            except JobCtrlError as exc:
                self.tracker.fail(params.job_id, "score", owner, exc)
                raise
            self.tracker.succeed(params.job_id, "score", owner)
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return self._verdict(params.job_id)
