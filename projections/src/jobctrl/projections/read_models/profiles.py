"""Profile revisions and preparation continuations, for the operations view.

``profile_version_projections``: one row per (tenant, profile version) from ``ProfileRevisionSaved``:
the digests (facts / presentation) and which sections the revision holds — never the profile content
itself, which is personal data and is read from the profile aggregate.  A job's preparation is stale
when it was built from a facts digest older than the newest revision's.

``profile_continuation_projections``: one row per (tenant, outbox intent) following the profile
outbox: ``queued`` → ``dispatch_intended`` (the Temporal start may have happened) or ``coalesced``
(provably never started, folded into a newer intent).  ``coalesced`` and ``dispatch_intended`` are
both final for the outbox, so the first of them wins; a dispatched continuation then becomes
``closed`` when its terminal fact ``ProfileContinuationClosed`` arrives (ADR 0077).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.text import bound_text
from jobctrl.orchestration.events import (
    ProfileContinuationClosed,
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileRevisionSaved,
)
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

ContinuationStatus = Literal["queued", "dispatch_intended", "coalesced", "closed"]
_SECTION_LIMIT = 50

profile_version_projections = sa.Table(
    "profile_version_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("profile_version", sa.Integer, primary_key=True),
    sa.Column("facts_digest", sa.String(128), nullable=False),
    sa.Column("presentation_digest", sa.String(128), nullable=False),
    sa.Column("sections_json", sa.Text, nullable=False),
    sa.Column("saved_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)

profile_continuation_projections = sa.Table(
    "profile_continuation_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("intent_id", sa.String(200), primary_key=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("profile_version", sa.Integer, nullable=True),
    sa.Column("workflow_id", sa.String(200), nullable=True),
    sa.Column("into_intent_id", sa.String(200), nullable=True),
    sa.Column("queued_at", sa.String(40), nullable=True),
    sa.Column("dispatch_intended_at", sa.String(40), nullable=True),
    sa.Column("coalesced_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ProfileVersionRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    profile_version: int
    facts_digest: str
    presentation_digest: str
    sections_json: str  # sorted top-level section names of the revision
    saved_at: str | None
    last_event_position: int
    updated_at: str | None


class ContinuationRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    intent_id: str
    status: ContinuationStatus
    profile_version: int | None
    workflow_id: str | None
    into_intent_id: str | None
    queued_at: str | None
    dispatch_intended_at: str | None
    coalesced_at: str | None
    last_event_position: int
    updated_at: str | None


PROFILE_VERSIONS = ReadModelTable(profile_version_projections, ProfileVersionRow)
CONTINUATIONS = ReadModelTable(profile_continuation_projections, ContinuationRow)
_encoder = msgspec.json.Encoder()


def _version_key(event: ProfileRevisionSaved, info: EventInfo) -> tuple[str, int]:
    return (info.tenant_id, event.profile_version)


def _intent_key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.intent_id)


def on_revision(
    row: ProfileVersionRow | None, event: ProfileRevisionSaved, info: EventInfo
) -> ProfileVersionRow:
    if row is not None:
        return row  # a version is saved once
    sections = sorted(bound_text(str(k), 80) for k in event.content)[:_SECTION_LIMIT]
    return ProfileVersionRow(
        tenant_id=info.tenant_id,
        profile_version=event.profile_version,
        facts_digest=bound_text(event.facts_digest, 128),
        presentation_digest=bound_text(event.presentation_digest, 128),
        sections_json=_encoder.encode(sections).decode(),
        saved_at=utc_or_none(event.saved_at),
        last_event_position=info.position,
        updated_at=info.at,
    )


def _continuation(
    row: ContinuationRow | None, event: Any, info: EventInfo, **changes: Any
) -> ContinuationRow:
    if row is None:
        row = CONTINUATIONS.blank(
            tenant_id=info.tenant_id,
            intent_id=bound_text(event.intent_id, 200),
            status="queued",
            last_event_position=info.position,
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_queued(
    row: ContinuationRow | None, event: ProfileContinuationQueued, info: EventInfo
) -> ContinuationRow:
    if row is not None and row.queued_at is not None:
        return row
    return _continuation(
        row,
        event,
        info,
        profile_version=event.profile_version,
        workflow_id=bound_text(event.workflow_id, 200),
        queued_at=utc_or_none(event.queued_at),
    )


def _leave_queue(row: ContinuationRow | None, event: Any, info: EventInfo, **changes: Any) -> ContinuationRow:
    """A queued intent moves on once, to dispatched or coalesced: an intent whose start may have
    happened is never coalesced away, and a coalesced one is never dispatched."""
    if row is not None and row.status != "queued":
        return row
    return _continuation(row, event, info, **changes)


def on_dispatch_intended(
    row: ContinuationRow | None, event: ProfileContinuationDispatchIntended, info: EventInfo
) -> ContinuationRow:
    workflow_id, at = bound_text(event.workflow_id, 200), utc_or_none(event.intended_at)
    return _leave_queue(
        row, event, info, status="dispatch_intended", workflow_id=workflow_id, dispatch_intended_at=at
    )


def on_coalesced(
    row: ContinuationRow | None, event: ProfileContinuationCoalesced, info: EventInfo
) -> ContinuationRow:
    into, at = bound_text(event.into_intent_id, 200), utc_or_none(event.coalesced_at)
    return _leave_queue(row, event, info, status="coalesced", into_intent_id=into, coalesced_at=at)


def on_closed(
    row: ContinuationRow | None, event: ProfileContinuationClosed, info: EventInfo
) -> ContinuationRow | None:
    if row is None or row.status != "dispatch_intended":
        return row  # only a dispatched continuation runs, so only one can close (and only once)
    return _continuation(row, event, info, status="closed")


PROJECTION = Projection(
    name="profiles",
    tables=(PROFILE_VERSIONS, CONTINUATIONS),
    folds=(
        Fold(ProfileRevisionSaved, PROFILE_VERSIONS, _version_key, on_revision),
        Fold(ProfileContinuationQueued, CONTINUATIONS, _intent_key, on_queued),
        Fold(ProfileContinuationDispatchIntended, CONTINUATIONS, _intent_key, on_dispatch_intended),
        Fold(ProfileContinuationCoalesced, CONTINUATIONS, _intent_key, on_coalesced),
        Fold(ProfileContinuationClosed, CONTINUATIONS, _intent_key, on_closed),
    ),
    creates_rows_on=frozenset({"ProfileRevisionSaved", "ProfileContinuationQueued"}),
)
