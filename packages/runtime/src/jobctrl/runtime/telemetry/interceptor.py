"""``ActivityRuntimeTelemetryInterceptor``: counts every activity attempt, keeps bounded detail for
allowlisted kinds, and never reads activity arguments.

Only ``activity.info()`` facts are used (type, workflow id, run id, attempt, start time).  Workflow ids
outside the safe patterns and run ids that are not UUIDs become truncated sha256 opaque ids, so a URL,
prompt or description can never reach a heartbeat row even if a caller put one in an id.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from temporalio import activity
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

DETAIL_LIMIT = 20
ALLOWLIST: frozenset[str] = frozenset(
    {
        "plan_discovery_sources",
        "discovery_source_family",
        "discovery_enrichment",
        "discovery_preparation_fanout",
        "enrich",
        "score",
        "score_job",
        "tailor",
        "tailor_job",
        "cover",
        "cover_letter",
        "render_pdf",
        "derive_preparation_targets",
    }
)
_SAFE_WORKFLOW = re.compile(
    r"^(discover-local|prep-preparation:[0-9a-f]{64}|run-[0-9a-f]{32}|apply-auto-local)$"
)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def opaque(value: str) -> str:
    return "opaque-" + hashlib.sha256(value.encode()).hexdigest()[:16]


def safe_workflow_id(value: str) -> str:
    return value if _SAFE_WORKFLOW.fullmatch(value) else opaque(value)


def safe_run_id(value: str) -> str:
    return value if _UUID.fullmatch(value) else opaque(value)


@dataclass(frozen=True)
class ActiveItem:
    seq: int
    kind: str
    workflow_id: str
    run_id: str
    attempt: int
    started_monotonic: float
    started_at: float


@dataclass
class DurationSummary:
    count: int = 0
    total_ms: int = 0
    max_ms: int = 0


@dataclass
class TelemetrySnapshot:
    active_count: int
    per_kind: dict[str, int]
    details: list[dict[str, Any]]
    details_total: int
    truncated: bool
    durations: dict[str, dict[str, int]]


@dataclass
class RuntimeTelemetry:
    """Shared between the interceptor (activity threads and the event loop) and the heartbeat loop."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _seq: itertools.count[int] = field(default_factory=itertools.count)
    _active: dict[int, ActiveItem] = field(default_factory=dict)
    _durations: dict[str, DurationSummary] = field(default_factory=dict)

    def begin(self, kind: str, workflow_id: str, run_id: str, attempt: int) -> int:
        with self._lock:
            seq = next(self._seq)
            self._active[seq] = ActiveItem(
                seq,
                kind,
                safe_workflow_id(workflow_id),
                safe_run_id(run_id),
                attempt,
                time.monotonic(),
                time.time(),
            )
            return seq

    def end(self, seq: int, succeeded: bool) -> None:
        with self._lock:
            item = self._active.pop(seq, None)
            if item is None or not succeeded or item.kind not in ALLOWLIST:
                return
            elapsed = int((time.monotonic() - item.started_monotonic) * 1000)
            summary = self._durations.setdefault(item.kind, DurationSummary())
            summary.count += 1
            summary.total_ms += elapsed
            summary.max_ms = max(summary.max_ms, elapsed)

    def snapshot(self) -> TelemetrySnapshot:
        with self._lock:
            items = sorted(self._active.values(), key=lambda i: i.seq)
            durations = {
                k: {"count": v.count, "totalMs": v.total_ms, "maxMs": v.max_ms}
                for k, v in sorted(self._durations.items())
            }
        allowed = [i for i in items if i.kind in ALLOWLIST]
        # Per-kind counts only name allowlisted kinds; everything else is counted as "other".
        per_kind = Counter(i.kind if i.kind in ALLOWLIST else "other" for i in items)
        details = [
            {
                "kind": i.kind,
                "workflowId": i.workflow_id,
                "runId": i.run_id,
                "attempt": i.attempt,
                "startedAt": round(i.started_at, 3),
            }
            for i in allowed[:DETAIL_LIMIT]  # oldest first
        ]
        return TelemetrySnapshot(
            active_count=len(items),
            per_kind=dict(sorted(per_kind.items())),
            details=details,
            details_total=len(allowed),
            truncated=len(allowed) > DETAIL_LIMIT,
            durations=durations,
        )


class ActivityRuntimeTelemetryInterceptor(Interceptor):
    def __init__(self, telemetry: RuntimeTelemetry) -> None:
        self.telemetry = telemetry

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Inbound(next, self.telemetry)


class _Inbound(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, telemetry: RuntimeTelemetry) -> None:
        super().__init__(next)
        self.telemetry = telemetry

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()  # never ``input.args``
        seq = self.telemetry.begin(
            info.activity_type, info.workflow_id or "", info.workflow_run_id or "", info.attempt
        )
        ok = False
        try:
            result = await self.next.execute_activity(input)
            ok = True
            return result
        finally:
            self.telemetry.end(seq, ok)
