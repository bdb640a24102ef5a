"""The scoring bounded context: evidence-ledger scores under versioned policies.

* ``events`` — published events (importable alone), including ``ScoringPolicyUpdated``.
* ``domain`` — ``aggregates`` (``JobScore`` on stream ``score-<jobId>``, ``ScoringPolicyHistory``),
  ``profile.CandidateProfile`` (the evidence Scoring matches against), ``ledger`` / ``formula`` (ledger
  rows and the requirement-fit formula), ``ledger_build`` (untrusted model output to a valid ledger),
  ``policy.ScoringPolicy`` (versioned settings and fit bands).
* ``use_cases`` — ``score_job``, ``update_scoring_policy``, ``request_rescores``, ``correct_score``.
* ``ports`` — the description and profile sources, and what is asked of the LLM port.
* ``adapters.offline_rules`` — the offline provider's handlers (``register_offline_scoring(provider)``).
* ``activities`` — the ``score_job`` Temporal activity.

The public face below is resolved lazily (``jobctrl.kernel.exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.scoring.adapters.offline_rules import register_offline_scoring
    from jobctrl.scoring.domain.aggregates import InvalidCorrectionError, JobScore, ScoreNotFoundError
    from jobctrl.scoring.domain.formula import MAX_SCORE, MIN_SCORE
    from jobctrl.scoring.domain.policy import ScoringPolicy
    from jobctrl.scoring.domain.profile import (
        SPONSORSHIP_NEEDED,
        CandidateProfile,
        EvidenceItem,
        EvidenceKind,
    )
    from jobctrl.scoring.ports import DescriptionSource, ProfileSource
    from jobctrl.scoring.use_cases.correct_score import CorrectScore, correct_score
    from jobctrl.scoring.use_cases.request_rescores import request_rescores
    from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job
    from jobctrl.scoring.use_cases.update_scoring_policy import UpdateScoringPolicy, update_scoring_policy

_EXPORTS: dict[str, str] = {
    "score_job": "jobctrl.scoring.use_cases.score_job",
    "ScoreJob": "jobctrl.scoring.use_cases.score_job",
    "update_scoring_policy": "jobctrl.scoring.use_cases.update_scoring_policy",
    "UpdateScoringPolicy": "jobctrl.scoring.use_cases.update_scoring_policy",
    "request_rescores": "jobctrl.scoring.use_cases.request_rescores",
    "correct_score": "jobctrl.scoring.use_cases.correct_score",
    "CorrectScore": "jobctrl.scoring.use_cases.correct_score",
    "DescriptionSource": "jobctrl.scoring.ports",
    "ProfileSource": "jobctrl.scoring.ports",
    "register_offline_scoring": "jobctrl.scoring.adapters.offline_rules",
    "JobScore": "jobctrl.scoring.domain.aggregates",
    "ScoreNotFoundError": "jobctrl.scoring.domain.aggregates",
    "InvalidCorrectionError": "jobctrl.scoring.domain.aggregates",
    "ScoringPolicy": "jobctrl.scoring.domain.policy",
    "CandidateProfile": "jobctrl.scoring.domain.profile",
    "EvidenceItem": "jobctrl.scoring.domain.profile",
    "EvidenceKind": "jobctrl.scoring.domain.profile",
    "MAX_SCORE": "jobctrl.scoring.domain.formula",
    "MIN_SCORE": "jobctrl.scoring.domain.formula",
    "SPONSORSHIP_NEEDED": "jobctrl.scoring.domain.profile",
}
__all__ = [
    "MAX_SCORE",
    "MIN_SCORE",
    "SPONSORSHIP_NEEDED",
    "CandidateProfile",
    "CorrectScore",
    "DescriptionSource",
    "EvidenceItem",
    "EvidenceKind",
    "InvalidCorrectionError",
    "JobScore",
    "ProfileSource",
    "ScoreJob",
    "ScoreNotFoundError",
    "ScoringPolicy",
    "UpdateScoringPolicy",
    "correct_score",
    "register_offline_scoring",
    "request_rescores",
    "score_job",
    "update_scoring_policy",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
