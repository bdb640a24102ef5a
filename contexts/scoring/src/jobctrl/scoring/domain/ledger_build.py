"""Turns untrusted model output into a ledger that satisfies the formula's invariants.

Provider output is data, not truth: evidence ids the profile does not hold are dropped (a model must
not invent evidence), a claimed fit left without evidence becomes ``not_assessed``, a blocked salary
becomes ``not_assessed`` (salary never blocks), and an unmatched requirement is ``not_assessed``.
"""

from __future__ import annotations

from jobctrl.kernel.text import bound_text
from jobctrl.scoring.domain.ledger import CLAIMING_FITS, Fit, LedgerRow, RequirementKind
from jobctrl.scoring.domain.profile import CandidateProfile
from jobctrl.scoring.ports import EvidenceMatching, RequirementExtraction


def build_ledger(
    extraction: RequirementExtraction, matching: EvidenceMatching, profile: CandidateProfile
) -> tuple[LedgerRow, ...]:
    known = profile.evidence_ids()
    by_index = {m.requirement_index: m for m in matching.matches}
    rows: list[LedgerRow] = []
    for index, req in enumerate(extraction.requirements):
        match = by_index.get(index)
        fit = match.fit if match else Fit.NOT_ASSESSED
        evidence = tuple(dict.fromkeys(e for e in (match.evidence_ids if match else []) if e in known))
        if fit in CLAIMING_FITS and not evidence:
            fit = Fit.NOT_ASSESSED
        if req.kind is RequirementKind.SALARY and fit is Fit.BLOCKED:
            fit = Fit.NOT_ASSESSED
        rows.append(
            LedgerRow(
                requirement_id=f"r{index + 1}",
                text=bound_text(req.text, 400),
                tier=req.tier,
                kind=req.kind,
                weight=req.weight,
                fit=fit,
                evidence_ids=evidence if fit in CLAIMING_FITS else (),
            )
        )
    return tuple(rows)


def keywords_of(extraction: RequirementExtraction, limit: int = 20) -> list[str]:
    ordered = dict.fromkeys(
        bound_text(k.lower(), 40) for req in extraction.requirements for k in req.keywords
    )
    return [k for k in ordered if k][:limit]
