"""Quarantine and disable recommendations from a source's recent run outcomes.

Thresholds (ADR 0016):

* 3 consecutive failed runs → quarantine (``consecutive_failures``); 6 → disable.
* Over the last 10 runs (at least 5 of them), a success rate below 0.2 → disable (``low_success_rate``).
* Over the last 5 successful runs with at least 20 postings seen, 90 % or more of them duplicates of
  jobs first found elsewhere → quarantine (``high_duplicate_rate``): the source adds crawl cost, not jobs.

A recommendation is only a value; applying it is the ``apply_source_recommendation`` command.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jobctrl.discovery.events import SourceState

QUARANTINE_AFTER_CONSECUTIVE_FAILURES = 3
DISABLE_AFTER_CONSECUTIVE_FAILURES = 6
SUCCESS_WINDOW = 10
MIN_RUNS_FOR_SUCCESS_RATE = 5
MIN_SUCCESS_RATE = 0.2
DUPLICATE_WINDOW = 5
MIN_POSTINGS_FOR_DUPLICATE_RATE = 20
MAX_DUPLICATE_RATE = 0.9


@dataclass(frozen=True, slots=True)
class SourceRunOutcome:
    succeeded: bool
    postings_seen: int = 0
    duplicates: int = 0


@dataclass(frozen=True, slots=True)
class SourceRecommendation:
    to_state: SourceState
    reason: str


def _consecutive_failures(history: Sequence[SourceRunOutcome]) -> int:
    count = 0
    for outcome in reversed(history):
        if outcome.succeeded:
            break
        count += 1
    return count


def recommend(current: SourceState, history: Sequence[SourceRunOutcome]) -> SourceRecommendation | None:
    """What state the source should move to given its outcomes (oldest first), or None."""
    if current == "disabled":
        return None
    failures = _consecutive_failures(history)
    if failures >= DISABLE_AFTER_CONSECUTIVE_FAILURES:
        return SourceRecommendation("disabled", "consecutive_failures")
    window = list(history)[-SUCCESS_WINDOW:]
    if len(window) >= MIN_RUNS_FOR_SUCCESS_RATE:
        rate = sum(o.succeeded for o in window) / len(window)
        if rate < MIN_SUCCESS_RATE:
            return SourceRecommendation("disabled", "low_success_rate")
    if current == "quarantined":
        return None
    if failures >= QUARANTINE_AFTER_CONSECUTIVE_FAILURES:
        return SourceRecommendation("quarantined", "consecutive_failures")
    recent = [o for o in history if o.succeeded][-DUPLICATE_WINDOW:]
    seen = sum(o.postings_seen for o in recent)
    if (
        seen >= MIN_POSTINGS_FOR_DUPLICATE_RATE
        and sum(o.duplicates for o in recent) / seen >= MAX_DUPLICATE_RATE
    ):
        return SourceRecommendation("quarantined", "high_duplicate_rate")
    return None
