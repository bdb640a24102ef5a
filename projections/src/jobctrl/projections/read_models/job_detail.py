"""``job_detail_projections``: one row per (tenant, job) with what the job page shows from
Discovery, Enrichment and Scoring — canonical identity, source observations, the (bounded) full
description, application URL, snapshot version, and the score with its evidence breakdown."""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import CanonicalJobIdentityResolved, JobDiscovered, JobSourceObserved
from jobctrl.enrichment.events import JobEnriched, PostingContentSnapshotCaptured
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.scoring.events import JobScored, ScoreCorrected

DESCRIPTION_LIMIT = 20_000
URL_LIMIT = 2000
EVIDENCE_LIMIT = 20_000

job_detail_projections = sa.Table(
    "job_detail_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("posting_url", sa.String(URL_LIMIT), nullable=False),
    sa.Column("canonical_url", sa.String(URL_LIMIT), nullable=True),
    sa.Column("ats_kind", sa.String(20), nullable=True),
    sa.Column("source_native_id", sa.String(200), nullable=True),
    sa.Column("identity_confidence", sa.Float, nullable=True),
    sa.Column("observations", sa.Integer, nullable=False),
    sa.Column("description", sa.Text, nullable=True),
    sa.Column("application_url", sa.String(URL_LIMIT), nullable=True),
    sa.Column("extraction_tier", sa.String(40), nullable=True),
    sa.Column("snapshot_version", sa.Integer, nullable=True),
    sa.Column("fit_score", sa.Float, nullable=True),
    sa.Column("score_version", sa.Integer, nullable=True),
    sa.Column("score_confidence", sa.String(40), nullable=True),
    sa.Column("breakdown_json", sa.Text, nullable=False),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class JobDetailRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    job_id: str
    posting_url: str
    canonical_url: str | None
    ats_kind: str | None
    source_native_id: str | None
    identity_confidence: float | None
    observations: int
    description: str | None
    application_url: str | None
    extraction_tier: str | None
    snapshot_version: int | None
    fit_score: float | None
    score_version: int | None
    score_confidence: str | None
    breakdown_json: str
    last_event_position: int
    updated_at: str | None


JOB_DETAIL = ReadModelTable(job_detail_projections, JobDetailRow)
_encoder = msgspec.json.Encoder(order="sorted")


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.job_id)


def _touch(row: JobDetailRow, info: EventInfo, **changes: Any) -> JobDetailRow:
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_discovered(row: JobDetailRow | None, event: JobDiscovered, info: EventInfo) -> JobDetailRow:
    if row is not None:
        return row
    return JobDetailRow(
        tenant_id=info.tenant_id,
        job_id=event.job_id,
        posting_url=bound_text(event.posting_url, URL_LIMIT),
        canonical_url=None,
        ats_kind=None,
        source_native_id=None,
        identity_confidence=None,
        observations=0,
        description=None,
        application_url=None,
        extraction_tier=None,
        snapshot_version=None,
        fit_score=None,
        score_version=None,
        score_confidence=None,
        breakdown_json="{}",
        last_event_position=info.position,
        updated_at=info.at,
    )


def on_identity(
    row: JobDetailRow | None, event: CanonicalJobIdentityResolved, info: EventInfo
) -> JobDetailRow | None:
    if row is None:
        return row
    return _touch(
        row,
        info,
        canonical_url=bound_text(event.canonical_url, URL_LIMIT),
        ats_kind=event.ats_kind,
        source_native_id=bound_text(event.source_native_id, 200),
        identity_confidence=event.confidence,
    )


def on_observed(row: JobDetailRow | None, event: JobSourceObserved, info: EventInfo) -> JobDetailRow | None:
    return None if row is None else _touch(row, info, observations=row.observations + 1)


def on_enriched(row: JobDetailRow | None, event: JobEnriched, info: EventInfo) -> JobDetailRow | None:
    if row is None:
        return row
    return _touch(
        row,
        info,
        description=bound_text(event.full_description, DESCRIPTION_LIMIT, keep_newlines=True),
        application_url=bound_text(event.application_url, URL_LIMIT) or None,
        extraction_tier=bound_text(event.extraction_tier, 40),
    )


def on_snapshot(
    row: JobDetailRow | None, event: PostingContentSnapshotCaptured, info: EventInfo
) -> JobDetailRow | None:
    if row is None or (row.snapshot_version is not None and event.snapshot_version <= row.snapshot_version):
        return row  # snapshots are immutable and versioned: only a newer one advances the row
    return _touch(row, info, snapshot_version=event.snapshot_version)


def _breakdown(breakdown: dict[str, Any]) -> str:
    encoded = _encoder.encode(breakdown).decode()
    return encoded if len(encoded) <= EVIDENCE_LIMIT else '{"truncated":true}'


def on_scored(row: JobDetailRow | None, event: JobScored, info: EventInfo) -> JobDetailRow | None:
    if row is None or (row.score_version is not None and event.version < row.score_version):
        return row
    return _touch(
        row,
        info,
        fit_score=event.fit_score,
        score_version=event.version,
        score_confidence=bound_text(event.confidence, 40) if event.confidence else None,
        breakdown_json=_breakdown(event.breakdown),
    )


def on_corrected(row: JobDetailRow | None, event: ScoreCorrected, info: EventInfo) -> JobDetailRow | None:
    return None if row is None else _touch(row, info, fit_score=event.corrected_score)


PROJECTION = Projection(
    name="job_detail",
    tables=(JOB_DETAIL,),
    folds=(
        Fold(JobDiscovered, JOB_DETAIL, _key, on_discovered),
        Fold(CanonicalJobIdentityResolved, JOB_DETAIL, _key, on_identity),
        Fold(JobSourceObserved, JOB_DETAIL, _key, on_observed),
        Fold(JobEnriched, JOB_DETAIL, _key, on_enriched),
        Fold(PostingContentSnapshotCaptured, JOB_DETAIL, _key, on_snapshot),
        Fold(JobScored, JOB_DETAIL, _key, on_scored),
        Fold(ScoreCorrected, JOB_DETAIL, _key, on_corrected),
    ),
    creates_rows_on=frozenset({"JobDiscovered"}),
)
