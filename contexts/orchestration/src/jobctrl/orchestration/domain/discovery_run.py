"""The DiscoveryRun aggregate (stream ``discoveryrun-<runId>``): start, progress, completion/failure.

Orchestration's, and the only writer of ``DiscoveryRun*`` events (ADR 0180).  The event types stay in
discovery's published catalog (``jobctrl.discovery.events``, the reference's ``discovery.ts``), so the
stream name and every payload are those written before the move and old logs fold the same.

The progress spine: total = source families + 2 (terminal enrichment, preparation).  Monotonic: a
report can only move ``completed`` forward; ``total`` never shrinks; a report with total 0 (the
progress-silent live activities) changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from jobctrl.discovery.events import (
    DiscoveryRunCompleted,
    DiscoveryRunCounts,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    DiscoveryRunStarted,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.ids import checked_id
from jobctrl.kernel.text import bounded_code

MAX_ERROR_CLASSES = 20
MAX_SOURCE_IDS = 1000
#: ``DiscoveryRunFailed.sourceId`` of a run that ended without any source failing (``interrupt``).
NO_SOURCE = ""
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


class SourceFailed(Protocol):
    """One failed source of a family (discovery's ``SourceFailure`` has this shape)."""

    @property
    def source_id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def retryable(self) -> bool: ...


class FamilyEnd(Protocol):
    """One source family's end, as the run's terminal fact needs it (discovery's ``FamilyResult`` and
    the workflow's ``FamilyOutcome`` both read as one)."""

    @property
    def counts(self) -> DiscoveryRunCounts: ...
    @property
    def failures(self) -> Sequence[SourceFailed]: ...
    @property
    def failed(self) -> bool: ...


class DiscoveryRun(Aggregate):
    stream_prefix = "discoveryrun"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.started = False
        self.finished = False
        self.failed = False
        self.progress = RunProgress()

    def start(self, *, source_ids: list[str], profile_snapshot_id: str | None, at: str) -> None:
        if self.started:
            return
        self._record(
            DiscoveryRunStarted(
                run_id=self.id,
                source_ids=[checked_id(s) for s in source_ids[:MAX_SOURCE_IDS]],
                profile_snapshot_id=profile_snapshot_id,
                started_at=at,
            )
        )

    def report_progress(self, *, completed: int, total: int, at: str) -> bool:
        # A failed run stops where it failed: a late report (a family still crawling for a dead run)
        # moves nothing.  A completed run's families are done, but its terminal enrichment and
        # preparation steps come after the completion, so they still advance the spine (ADR 0130).
        if self.failed:
            return False
        nxt = self.progress.after(completed, total)
        if nxt is None:
            return False
        self._record(
            DiscoveryRunProgressRecorded(
                run_id=self.id, completed=nxt.completed, total=nxt.total, recorded_at=at
            )
        )
        return True

    # The first terminal result wins: a duplicate or late terminal report records nothing.
    def complete(self, *, counts: DiscoveryRunCounts, error_classes: list[str], at: str) -> bool:
        if self.finished:
            return False
        classes = sorted({bounded_code(c) for c in error_classes})[:MAX_ERROR_CLASSES]
        self._record(
            DiscoveryRunCompleted(run_id=self.id, counts=counts, error_classes=classes, completed_at=at)
        )
        return True

    def fail(self, *, source_id: str, error_class: str, retryable: bool, at: str) -> bool:
        if self.finished:
            return False
        self._record(
            DiscoveryRunFailed(
                run_id=self.id,
                source_id=source_id,
                error_class=bounded_code(error_class),
                retryable=retryable,
                failed_at=at,
            )
        )
        return True

    def interrupt(self, *, reason: str, retryable: bool, at: str) -> bool:
        """The run ended before its families reported: the workflow failed or was canceled elsewhere,
        or Temporal terminated / timed it out (ADR 0079).  No source caused it, so ``sourceId`` is
        empty and ``errorClass`` is the bounded reason."""
        return self.fail(source_id=NO_SOURCE, error_class=reason, retryable=retryable, at=at)

    @applies(DiscoveryRunStarted)
    def _started(self, event: DiscoveryRunStarted) -> None:
        self.started = True

    @applies(DiscoveryRunProgressRecorded)
    def _progressed(self, event: DiscoveryRunProgressRecorded) -> None:
        self.progress = RunProgress(event.completed, event.total)

    @applies(DiscoveryRunCompleted)
    def _completed(self, event: DiscoveryRunCompleted) -> None:
        self.finished = True

    @applies(DiscoveryRunFailed)
    def _failed(self, event: DiscoveryRunFailed) -> None:
        self.finished = True
        self.failed = True
