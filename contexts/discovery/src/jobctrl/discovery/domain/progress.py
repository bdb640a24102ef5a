"""The discovery run's progress spine: total = source families + 2 (terminal enrichment, preparation).

Monotonic: a report can only move ``completed`` forward; ``total`` never shrinks; a report with
total 0 (the progress-silent live activities) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

TERMINAL_STEPS = 2  # terminal enrichment pass + terminal preparation fan-out


def progress_total(family_count: int) -> int:
    return family_count + TERMINAL_STEPS


@dataclass(frozen=True, slots=True)
class RunProgress:
    completed: int = 0
    total: int = 0

    def after(self, completed: int, total: int) -> RunProgress | None:
        """The progress after a report, or None when the report must emit nothing."""
        if total <= 0:
            return None
        new_total = max(self.total, total)
        new_completed = min(max(self.completed, completed), new_total)
        candidate = RunProgress(new_completed, new_total)
        return None if candidate == self else candidate
