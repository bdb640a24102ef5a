"""Steps for requirement_fit.feature: the formula on hand-written ledgers."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.scoring.domain.formula import FitResult, compute_fit
from jobctrl.scoring.domain.ledger import Fit, LedgerRow, RequirementKind, Tier

scenarios("scoring/requirement_fit.feature")

TIERS = {"must": Tier.MUST_HAVE, "nice": Tier.NICE_TO_HAVE}


@dataclass
class Outcome:
    """What computing the fit gave: the result, or the refusal."""

    fit: FitResult | None = None
    error: JobCtrlError | None = None


def _row(index: int, spec: str) -> LedgerRow:
    """``tier:weight:fit[:evidence|:salary]``"""
    tier, weight, fit, *rest = spec.split(":")
    salary = rest == ["salary"]
    return LedgerRow(
        requirement_id=f"r{index}",
        text=f"requirement {index}",
        tier=TIERS[tier],
        kind=RequirementKind.SALARY if salary else RequirementKind.SKILL,
        weight=float(weight),
        fit=Fit(fit),
        evidence_ids=() if salary or not rest else tuple(rest),
    )


@given(parsers.parse('a ledger "{rows}"'), target_fixture="ledger")
def a_ledger(rows: str) -> list[LedgerRow]:
    return [_row(i, spec) for i, spec in enumerate(rows.split(","), start=1)]


@when("the fit is computed", target_fixture="outcome")
def compute(ledger: list[LedgerRow]) -> Outcome:
    try:
        return Outcome(fit=compute_fit(ledger))
    except JobCtrlError as exc:
        return Outcome(error=exc)


@then(parsers.parse("the score is {score:d}"))
def score_is(outcome: Outcome, score: int) -> None:
    assert outcome.fit is not None and outcome.fit.score == score


@then("the score was capped by a blocker")
def capped(outcome: Outcome) -> None:
    assert outcome.fit is not None and outcome.fit.capped_by_blocker and outcome.fit.raw_score > 4


@then(parsers.parse('the ledger is refused with "{code}"'))
def refused(outcome: Outcome, code: str) -> None:
    assert outcome.error is not None and outcome.error.code == code
