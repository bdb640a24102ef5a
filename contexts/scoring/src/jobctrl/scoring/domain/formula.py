"""The requirement-fit formula (runtime reference §3).

points = weight * tier multiplier * fit value; weighted fit = points / the points a perfect profile
would earn; score = 1 + round-half-up(9 * weighted fit), clamped to 1-10; any blocked requirement caps
the score at 4.  A row that claims a fit must cite at least one evidence id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.scoring.domain.ledger import CLAIMING_FITS, Fit, LedgerRow, RequirementKind, Tier

FORMULA_NAME = "requirement_fit_v1"
TIER_MULTIPLIER: dict[Tier, Decimal] = {Tier.MUST_HAVE: Decimal("1.25"), Tier.NICE_TO_HAVE: Decimal("1.0")}
FIT_VALUE: dict[Fit, Decimal] = {
    Fit.DIRECT: Decimal("1.0"),
    Fit.STRONG: Decimal("0.85"),
    Fit.TRANSFERABLE: Decimal("0.6"),
    Fit.MISSING: Decimal(0),
    Fit.BLOCKED: Decimal(0),
    Fit.NOT_ASSESSED: Decimal(0),
}
BLOCKED_CAP = 4
MIN_SCORE, MAX_SCORE = 1, 10


class InvalidLedgerError(JobCtrlError):
    code = "invalid_score_ledger"
    retryable = False


@dataclass(frozen=True)
class FitResult:
    score: int
    raw_score: int
    weighted_fit: float
    capped_by_blocker: bool


def check_ledger(rows: Sequence[LedgerRow]) -> None:
    """The ledger invariants; a violation is a typed error, never a silently adjusted score."""
    if not rows:
        raise InvalidLedgerError("a score needs at least one requirement")
    seen: set[str] = set()
    for row in rows:
        if row.requirement_id in seen:
            raise InvalidLedgerError(f"requirement {row.requirement_id} appears twice")
        seen.add(row.requirement_id)
        if not row.weight > 0:
            raise InvalidLedgerError(f"requirement {row.requirement_id} has a non-positive weight")
        if row.fit in CLAIMING_FITS and not row.evidence_ids:
            raise InvalidLedgerError(f"requirement {row.requirement_id} claims {row.fit} without evidence")
        if row.kind is RequirementKind.SALARY and row.fit is Fit.BLOCKED:
            # A posted salary is information for the candidate, never a hard blocker.
            raise InvalidLedgerError(f"salary requirement {row.requirement_id} cannot block")


def round_half_up(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def compute_fit(rows: Sequence[LedgerRow]) -> FitResult:
    check_ledger(rows)
    earned = Decimal(0)
    possible = Decimal(0)
    for row in rows:
        weight = Decimal(str(row.weight)) * TIER_MULTIPLIER[row.tier]
        earned += weight * FIT_VALUE[row.fit]
        possible += weight
    weighted = earned / possible
    raw = max(MIN_SCORE, min(MAX_SCORE, 1 + round_half_up(Decimal(9) * weighted)))
    blocked = any(row.fit is Fit.BLOCKED for row in rows)
    score = min(raw, BLOCKED_CAP) if blocked else raw
    return FitResult(
        score=score,
        raw_score=raw,
        weighted_fit=float(weighted.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)),
        capped_by_blocker=blocked and raw > BLOCKED_CAP,
    )
