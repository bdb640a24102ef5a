"""Fake context activities registered under the REAL activity names.

``FakeContexts`` holds what the fakes saw and what they should do; it is thread-safe because sync
activities run on the worker's thread pool.  Failures are raised as the taxonomy would raise them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from temporalio import activity
from temporalio.exceptions import ApplicationError

from jobctrl.activity_contracts.contracts import (
    ApplyActivityInput,
    ApplyActivityResult,
    ContactResearchActivityInput,
    ContactResearchActivityResult,
    EnrichmentInput,
    EnrichmentResult,
    PlanSourcesInput,
    PlanSourcesResult,
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationStepInput,
    PreparationStepResult,
    SourceFamilyInput,
    SourceFamilyResult,
)
from jobctrl.runtime.activities import ActivityFn

HOLD_LIMIT_S = 30.0


@dataclass
class FakeContexts:
    families: list[str] = field(default_factory=lambda: ["greenhouse", "lever"])
    #: family → (code, message) raised non-retryably by that family
    failing_families: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: (job_id, step) → remaining failures to raise
    failing_steps: dict[tuple[str, str], int] = field(default_factory=dict)
    #: (job_id, step) → "skipped" | "not_eligible"
    step_status: dict[tuple[str, str], str] = field(default_factory=dict)
    apply_batches: list[int] = field(default_factory=list)
    #: while set, step, apply and contact fakes wait (heartbeating, cancel-aware; at most HOLD_LIMIT_S)
    hold: threading.Event = field(default_factory=threading.Event)
    step_error_message: str = "step broke"
    calls: Counter[str] = field(default_factory=Counter)
    step_calls: list[tuple[str, str]] = field(default_factory=list)
    completed: dict[str, list[str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _saw(self, name: str) -> None:
        with self._lock:
            self.calls[name] += 1

    def _wait_while_held(self) -> None:
        deadline = time.monotonic() + HOLD_LIMIT_S
        while self.hold.is_set() and time.monotonic() < deadline:
            activity.heartbeat()
            if activity.is_cancelled():
                raise ApplicationError("canceled while held", type="canceled", non_retryable=True)
            time.sleep(0.05)

    # -- the fakes ------------------------------------------------------------------------------
    def activities(self) -> list[ActivityFn]:
        fakes = self

        @activity.defn(name="plan_discovery_sources")
        def plan_discovery_sources(params: PlanSourcesInput) -> PlanSourcesResult:
            fakes._saw("plan_discovery_sources")
            return PlanSourcesResult(list(fakes.families))

        @activity.defn(name="discovery_source_family")
        def discovery_source_family(params: SourceFamilyInput) -> SourceFamilyResult:
            fakes._saw("discovery_source_family")
            fakes._wait_while_held()
            failing = fakes.failing_families.get(params.family)
            if failing is not None:
                raise ApplicationError(failing[1], type=failing[0], non_retryable=True)
            return SourceFamilyResult(params.family, observed_jobs=3, new_jobs=2)

        @activity.defn(name="discovery_enrichment")
        def discovery_enrichment(params: EnrichmentInput) -> EnrichmentResult:
            fakes._saw("discovery_enrichment")
            return EnrichmentResult(enriched_jobs=3)

        @activity.defn(name="load_preparation_checkpoint")
        def load_preparation_checkpoint(params: PreparationCheckpointInput) -> PreparationCheckpoint:
            with fakes._lock:
                return PreparationCheckpoint(list(fakes.completed.get(params.idempotency_key, [])))  # type: ignore[arg-type]

        def step(name: str) -> Callable[[PreparationStepInput], PreparationStepResult]:
            def run(params: PreparationStepInput) -> PreparationStepResult:
                fakes._saw(name)
                key = (params.job_id, params.step)
                with fakes._lock:
                    fakes.step_calls.append(key)
                    remaining = fakes.failing_steps.get(key, 0)
                    if remaining:
                        fakes.failing_steps[key] = remaining - 1
                if remaining:
                    raise ApplicationError(fakes.step_error_message, type="llm_transient", non_retryable=True)
                fakes._wait_while_held()
                status = fakes.step_status.get(key, "done")
                if status == "done":
                    with fakes._lock:
                        fakes.completed.setdefault(params.idempotency_key, []).append(params.step)
                return PreparationStepResult(status)  # type: ignore[arg-type]

            return activity.defn(name=name)(run)

        @activity.defn(name="recover_preparation_state")
        def recover_preparation_state(params: PreparationStepInput) -> None:
            with fakes._lock:
                fakes.step_calls.append((params.job_id, f"recover:{params.step}"))

        @activity.defn(name="apply")
        def apply(params: ApplyActivityInput) -> ApplyActivityResult:
            fakes._saw("apply")
            fakes._wait_while_held()  # cooperative: heartbeats deliver the cancel
            with fakes._lock:
                processed = fakes.apply_batches.pop(0) if fakes.apply_batches else 0
            return ApplyActivityResult(processed=processed)

        @activity.defn(name="run_contact_research")
        def run_contact_research(params: ContactResearchActivityInput) -> ContactResearchActivityResult:
            fakes._saw("run_contact_research")
            fakes._wait_while_held()
            return ContactResearchActivityResult(candidates=2)

        return [
            plan_discovery_sources,
            discovery_source_family,
            discovery_enrichment,
            load_preparation_checkpoint,
            step("score_job"),
            step("tailor_job"),
            step("cover_letter"),
            step("render_pdf"),
            recover_preparation_state,
            apply,
            run_contact_research,
        ]
