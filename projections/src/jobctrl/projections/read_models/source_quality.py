"""``source_quality_projections``: one row per (tenant, source) — its registry state and how well it
has been working, folded from the registry events, observations, run failures and user feedback.

* registry: kind, policy, state and the reason of the last state change (quarantine / disable);
* health: observations, run failures, and ``consecutive_failures`` (a run failure adds one; an
  observation from the source shows it working and resets it to zero);
* feedback: useful (``useful``/``saved``/``applied``), duplicate, and poor (``dismissed``, ``stale``,
  ``wrong_*``, ``bad_source``, ``irrelevant``) counts from ``DiscoveryFeedbackRecorded`` events that
  name the source.

A row exists for any source the log mentions, registered or not (``kind`` stays ``None`` until its
``SourceRegistryEntryCreated``), so observations of an unregistered source are visible, not lost.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    DiscoveryFeedbackRecorded,
    DiscoveryRunFailed,
    FeedbackKind,
    JobSourceObserved,
    SourceRegistryEntryCreated,
    SourceRegistryEntryUpdated,
    SourceStateChanged,
)
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

USEFUL: frozenset[FeedbackKind] = frozenset({"useful", "saved", "applied"})
DUPLICATE: frozenset[FeedbackKind] = frozenset({"duplicate"})
# Every other kind (dismissed, stale, wrong_company, wrong_location, bad_source, irrelevant) is poor.

source_quality_projections = sa.Table(
    "source_quality_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("source_id", sa.String(200), primary_key=True),
    sa.Column("kind", sa.String(40), nullable=True),
    sa.Column("policy_id", sa.String(200), nullable=True),
    sa.Column("state", sa.String(20), nullable=True),
    sa.Column("state_reason", sa.String(200), nullable=True),
    sa.Column("state_changed_at", sa.String(40), nullable=True),
    sa.Column("registry_updates", sa.Integer, nullable=False),
    sa.Column("observations", sa.Integer, nullable=False),
    sa.Column("last_observed_at", sa.String(40), nullable=True),
    sa.Column("run_failures", sa.Integer, nullable=False),
    sa.Column("consecutive_failures", sa.Integer, nullable=False),
    sa.Column("last_error_class", sa.String(80), nullable=True),
    sa.Column("last_failed_at", sa.String(40), nullable=True),
    sa.Column("feedback_useful", sa.Integer, nullable=False),
    sa.Column("feedback_duplicate", sa.Integer, nullable=False),
    sa.Column("feedback_poor", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class SourceQualityRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    source_id: str
    kind: str | None
    policy_id: str | None
    state: str | None
    state_reason: str | None
    state_changed_at: str | None
    registry_updates: int
    observations: int
    last_observed_at: str | None
    run_failures: int
    consecutive_failures: int
    last_error_class: str | None
    last_failed_at: str | None
    feedback_useful: int
    feedback_duplicate: int
    feedback_poor: int
    created_at: str | None
    last_event_position: int
    updated_at: str | None


SOURCE_QUALITY = ReadModelTable(source_quality_projections, SourceQualityRow)


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.source_id or "")


def _next(row: SourceQualityRow | None, event: Any, info: EventInfo, **changes: Any) -> SourceQualityRow:
    if row is None:
        row = SOURCE_QUALITY.blank(
            tenant_id=info.tenant_id,
            source_id=bound_text(event.source_id, 200),
            registry_updates=0,
            observations=0,
            run_failures=0,
            consecutive_failures=0,
            feedback_useful=0,
            feedback_duplicate=0,
            feedback_poor=0,
            last_event_position=info.position,
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_created(
    row: SourceQualityRow | None, event: SourceRegistryEntryCreated, info: EventInfo
) -> SourceQualityRow:
    if row is not None and row.created_at is not None:
        return row  # a source is created once
    return _next(
        row,
        event,
        info,
        kind=event.kind,
        policy_id=bound_text(event.policy_id, 200),
        # a state change folded before the creation (out-of-order import) is the newer fact
        state=row.state if row is not None and row.state is not None else event.state,
        created_at=utc_or_none(event.created_at),
    )


def on_updated(
    row: SourceQualityRow | None, event: SourceRegistryEntryUpdated, info: EventInfo
) -> SourceQualityRow:
    return _next(row, event, info, registry_updates=(row.registry_updates if row else 0) + 1)


def on_state_changed(
    row: SourceQualityRow | None, event: SourceStateChanged, info: EventInfo
) -> SourceQualityRow:
    return _next(
        row,
        event,
        info,
        state=event.to_state,
        state_reason=bound_text(event.reason, 200),
        state_changed_at=utc_or_none(event.changed_at),
    )


def on_observed(row: SourceQualityRow | None, event: JobSourceObserved, info: EventInfo) -> SourceQualityRow:
    return _next(
        row,
        event,
        info,
        observations=(row.observations if row else 0) + 1,
        last_observed_at=utc_or_none(event.observed_at),
        consecutive_failures=0,
    )


def on_run_failed(
    row: SourceQualityRow | None, event: DiscoveryRunFailed, info: EventInfo
) -> SourceQualityRow | None:
    if not event.source_id:
        return row  # an interrupted run (canceled, terminated, timed out) says nothing about a source
    return _next(
        row,
        event,
        info,
        run_failures=(row.run_failures if row else 0) + 1,
        consecutive_failures=(row.consecutive_failures if row else 0) + 1,
        last_error_class=bound_text(event.error_class, 80),
        last_failed_at=utc_or_none(event.failed_at),
    )


def on_feedback(
    row: SourceQualityRow | None, event: DiscoveryFeedbackRecorded, info: EventInfo
) -> SourceQualityRow | None:
    if event.source_id is None:
        return row  # feedback about a job without a named source says nothing about a source
    if event.kind in USEFUL:
        return _next(row, event, info, feedback_useful=(row.feedback_useful if row else 0) + 1)
    if event.kind in DUPLICATE:
        return _next(row, event, info, feedback_duplicate=(row.feedback_duplicate if row else 0) + 1)
    return _next(row, event, info, feedback_poor=(row.feedback_poor if row else 0) + 1)


PROJECTION = Projection(
    name="source_quality",
    tables=(SOURCE_QUALITY,),
    folds=(
        Fold(SourceRegistryEntryCreated, SOURCE_QUALITY, _key, on_created),
        Fold(SourceRegistryEntryUpdated, SOURCE_QUALITY, _key, on_updated),
        Fold(SourceStateChanged, SOURCE_QUALITY, _key, on_state_changed),
        Fold(JobSourceObserved, SOURCE_QUALITY, _key, on_observed),
        Fold(DiscoveryRunFailed, SOURCE_QUALITY, _key, on_run_failed),
        Fold(DiscoveryFeedbackRecorded, SOURCE_QUALITY, _key, on_feedback),
    ),
    # Not DiscoveryRunFailed: an interrupted run names no source and leaves no row (ADR 0079).
    creates_rows_on=frozenset({"SourceRegistryEntryCreated", "SourceStateChanged", "JobSourceObserved"}),
)
