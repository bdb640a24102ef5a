"""The activity registry the worker uses.

``build_activities(deps, overrides)`` returns every activity the workflows call, by name: the
runtime-generic ones bound to ``deps``, with ``overrides`` (name → callable decorated with
``activity.defn(name=...)``) adding the contexts' activities (the composition root's
``activities()``; tests pass fakes under the real names the same way).  A worker missing any name a
workflow calls is refused at build with a ``ConfigurationError`` naming what is unwired, so an
unwired worker never starts rather than failing runs later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from temporalio import activity

from jobctrl.discovery import InterruptedMembershipCloser
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration.activities import (
    ContinuationClosingActivities,
    DiscoveryRunActivities,
    LifecycleActivities,
)
from jobctrl.runtime.activities.continuation import continuation_activities
from jobctrl.runtime.activities.deps import ActivityDeps
from jobctrl.runtime.activities.fanout import FanoutActivities
from jobctrl.runtime.activities.opening import OPEN_PREPARATION, open_preparation_activity
from jobctrl.runtime.activities.spend import SpendActivities

ActivityFn = Callable[..., Any]

#: The context activities the workflows call by name; the composition root (or a test's fakes) wires them.
CONTEXT_ACTIVITIES: tuple[str, ...] = (
    "plan_discovery_sources",
    "discovery_source_family",
    "discovery_enrichment",
    "load_preparation_checkpoint",
    "score_job",
    "tailor_job",
    "cover_letter",
    "render_pdf",
    "recover_preparation_state",
    "apply",
    "run_contact_research",
)


def activity_name(fn: ActivityFn) -> str:
    defn = activity._Definition.from_callable(fn)
    if defn is None or defn.name is None:
        raise ValueError(f"{fn!r} is not an @activity.defn with a name")
    return defn.name


def build_activities(deps: ActivityDeps, overrides: Iterable[ActivityFn] = ()) -> list[ActivityFn]:
    lifecycle = LifecycleActivities(deps.store, clock=deps.clock)
    spend = SpendActivities(deps)
    fanout = FanoutActivities(deps)
    discovery_run = DiscoveryRunActivities(
        deps.store, close_membership=InterruptedMembershipCloser(deps.store, deps.clock), clock=deps.clock
    )
    continuation = continuation_activities(deps)
    closing = ContinuationClosingActivities(deps.store, clock=deps.clock)
    generic: list[ActivityFn] = [
        lifecycle.record_workflow_started,
        lifecycle.record_workflow_outcome,
        lifecycle.record_pipeline_steps,
        spend.check_spend_budget,
        fanout.discovery_preparation_fanout,
        discovery_run.finish_discovery_run,
        discovery_run.interrupt_discovery_run,
        discovery_run.report_discovery_progress,
        continuation.profile_continuation_targets,
        continuation.profile_continuation_status,
        closing.record_profile_continuation_closed,
    ]
    registry: dict[str, ActivityFn] = {activity_name(fn): fn for fn in generic}
    for fn in overrides:
        registry[activity_name(fn)] = fn
    missing = [name for name in CONTEXT_ACTIVITIES if name not in registry]
    if missing:
        raise ConfigurationError(f"activities not wired to their contexts: {', '.join(missing)}")
    registry[OPEN_PREPARATION] = open_preparation_activity(registry)  # ADR 0391: over the parts above
    return list(registry.values())


__all__ = ["CONTEXT_ACTIVITIES", "ActivityDeps", "ActivityFn", "activity_name", "build_activities"]
