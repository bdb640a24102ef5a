"""Score one job: extract requirements, match profile evidence, apply the formula, record JobScored."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgspec

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.kernel.ids import LOCAL_TENANT, InvalidIdError, checked_id
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import plain_text
from jobctrl.llm.port import LlmPort, StructuredRequest
from jobctrl.scoring.domain.aggregates import JobScore, ScoringPolicyHistory
from jobctrl.scoring.domain.formula import FORMULA_NAME, compute_fit
from jobctrl.scoring.domain.ledger import Fit, ScoreBreakdown
from jobctrl.scoring.domain.ledger_build import build_ledger, keywords_of
from jobctrl.scoring.domain.policy import ScoringPolicy
from jobctrl.scoring.domain.profile import CandidateProfile
from jobctrl.scoring.events import JobScored
from jobctrl.scoring.ports import (
    EXTRACT_SYSTEM,
    EXTRACT_TASK,
    MATCH_SYSTEM,
    MATCH_TASK,
    SCORE_PROMPT_VERSION,
    EvidenceMatching,
    RequirementExtraction,
    extract_prompt,
)

DEFAULT_POLICY_ID = "default"
MAX_DESCRIPTION_CHARS = 60_000


class NoRequirementsError(JobCtrlError):
    """Nothing in the posting reads as a requirement: there is nothing to score against."""

    code = "score_no_requirements"
    retryable = False


class InvalidScoreRequestError(JobCtrlError):
    code = "invalid_score_request"
    retryable = False


@dataclass(frozen=True)
class ScoreJob:
    job_id: str
    description: str
    profile: CandidateProfile
    policy_id: str = DEFAULT_POLICY_ID
    # Re-score even when the current score was made from exactly these inputs.
    force: bool = False


@dataclass(frozen=True)
class ScoreOutcome:
    job_id: str
    fit_score: int
    version: int
    fit_band: str
    blocked: bool
    reused: bool = False


def posting_hash(description: str) -> str:
    return hashlib.sha256(description.encode()).hexdigest()[:32]


def _reusable(score: JobScore | None, policy: ScoringPolicy, command: ScoreJob, digest: str) -> bool:
    """A current score made from the same posting, profile version, policy and prompts needs no model call.

    A manual correction of that score stays the current score: it is the user's word on these inputs.
    """
    if score is None or score.breakdown is None or score.is_stale:
        return False
    made = score.breakdown
    return (made.posting_hash, made.profile_version, made.policy_version, made.prompt_version) == (
        digest,
        command.profile.profile_version,
        policy.version,
        SCORE_PROMPT_VERSION,
    )


def current_policy(store: EventStore, policy_id: str, clock: Clock) -> ScoringPolicy:
    history = AggregateRepository.for_class(store, ScoringPolicyHistory, clock=clock).load(policy_id)
    return history.current if history else ScoringPolicy()


def _confidence(rows_total: int, assessed: int) -> str:
    share = assessed / rows_total
    return "high" if share >= 0.8 else "medium" if share >= 0.5 else "low"


def score_job(
    command: ScoreJob, *, store: EventStore, llm: LlmPort, clock: Clock, tenant_id: str = LOCAL_TENANT
) -> ScoreOutcome:
    try:
        checked_id(command.job_id)
        checked_id(command.policy_id)
    except InvalidIdError as exc:
        raise InvalidScoreRequestError(str(exc)) from exc
    # Greenhouse and career pages hand over HTML: the model and the rules read its text.
    description = plain_text(command.description).strip()
    if not description:
        raise MissingInputError(f"job {command.job_id} has no description to score")
    description = description[:MAX_DESCRIPTION_CHARS]
    digest = posting_hash(description)
    policy = current_policy(store, command.policy_id, clock)
    repo = AggregateRepository.for_class(store, JobScore, clock=clock, tenant_id=tenant_id)
    existing = repo.load(command.job_id)
    if not command.force and existing is not None and _reusable(existing, policy, command, digest):
        assert existing.fit_score is not None and existing.breakdown is not None
        return ScoreOutcome(
            command.job_id,
            existing.fit_score,
            existing.score_version,
            policy.band_for(existing.fit_score).value,
            any(row.fit is Fit.BLOCKED for row in existing.breakdown.requirements),
            reused=True,
        )

    extraction = llm.structured(
        StructuredRequest(
            task=EXTRACT_TASK,
            response_model=RequirementExtraction,
            system=EXTRACT_SYSTEM,
            prompt=extract_prompt(description, policy.criteria),
            context={"description": description, "criteria": policy.criteria},
            tenant_id=tenant_id,
        )
    ).value
    if not extraction.requirements:
        raise NoRequirementsError(f"no requirements found in job {command.job_id}")
    profile_json = command.profile.model_dump(mode="json")
    requirements_json = extraction.model_dump(mode="json")
    matching = llm.structured(
        StructuredRequest(
            task=MATCH_TASK,
            response_model=EvidenceMatching,
            system=MATCH_SYSTEM,
            prompt=msgspec.json.encode(
                {"criteria": policy.criteria, "requirements": requirements_json, "profile": profile_json}
            ).decode(),
            context={"requirements": requirements_json, "profile": profile_json, "criteria": policy.criteria},
            tenant_id=tenant_id,
        )
    ).value

    rows = build_ledger(extraction, matching, command.profile)
    fit = compute_fit(rows)
    band = policy.band_for(fit.score)
    blockers = [row.requirement_id for row in rows if row.fit is Fit.BLOCKED]
    breakdown = ScoreBreakdown(
        formula=FORMULA_NAME,
        policy_version=policy.version,
        profile_version=command.profile.profile_version,
        posting_hash=digest,
        prompt_version=SCORE_PROMPT_VERSION,
        weighted_fit=fit.weighted_fit,
        raw_score=fit.raw_score,
        capped_by_blocker=fit.capped_by_blocker,
        requirements=rows,
    )

    score = existing or JobScore(command.job_id)
    score.record(
        JobScored(
            job_id=command.job_id,
            fit_score=fit.score,
            breakdown=msgspec.to_builtins(breakdown),
            keywords=keywords_of(extraction),
            version=score.score_version + 1,
            scored_at=isoformat(clock.now()),
            fit_band=band.value,
            confidence=_confidence(len(rows), sum(row.fit is not Fit.NOT_ASSESSED for row in rows)),
            eligibility={"blocked": bool(blockers), "blockingRequirementIds": blockers},
        )
    )
    repo.save(score)
    return ScoreOutcome(command.job_id, fit.score, score.score_version, band.value, bool(blockers))
