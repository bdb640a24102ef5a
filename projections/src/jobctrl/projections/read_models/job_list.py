"""``job_list_projections``: one row per (tenant, job) with what the Jobs list shows — title,
employer, source, location, a bounded description preview, score, fit band, keywords, visibility and
active state.  Discovery, Enrichment and Scoring parts; later contexts add columns through new folds.

Values from free-form payload parts (``metadata``, ``changedFields``) are taken only when they are
strings, and every text is bounded and stripped of control characters before it is stored.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    JobDeleted,
    JobDiscovered,
    JobHidden,
    JobRestored,
    JobUnhidden,
    JobUpdated,
)
from jobctrl.enrichment.events import JobActiveStateChanged, JobEnriched
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none
from jobctrl.scoring.events import JobScored, ScoreCorrected

PREVIEW_LIMIT = 280
KEYWORDS_LIMIT = 20
TEXT_LIMIT = 200

job_list_projections = sa.Table(
    "job_list_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("title", sa.String(200), nullable=True),
    sa.Column("employer", sa.String(200), nullable=False),
    sa.Column("source", sa.String(200), nullable=False),
    sa.Column("location", sa.String(200), nullable=True),
    sa.Column("description_preview", sa.String(PREVIEW_LIMIT), nullable=True),
    sa.Column("fit_score", sa.Float, nullable=True),
    sa.Column("fit_band", sa.String(40), nullable=True),
    sa.Column("score_version", sa.Integer, nullable=True),
    sa.Column("keywords_json", sa.Text, nullable=False),
    sa.Column("active_state", sa.String(30), nullable=False),
    sa.Column("hidden", sa.Boolean, nullable=False),
    sa.Column("deleted", sa.Boolean, nullable=False),
    sa.Column("discovered_at", sa.String(40), nullable=True),
    sa.Column("enriched_at", sa.String(40), nullable=True),
    sa.Column("scored_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class JobListRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    job_id: str
    title: str | None
    employer: str
    source: str
    location: str | None
    description_preview: str | None
    fit_score: float | None
    fit_band: str | None
    score_version: int | None
    keywords_json: str
    active_state: str
    hidden: bool
    deleted: bool
    discovered_at: str | None
    enriched_at: str | None
    scored_at: str | None
    last_event_position: int
    updated_at: str | None


JOB_LIST = ReadModelTable(job_list_projections, JobListRow)
_encoder = msgspec.json.Encoder()


def text_field(source: dict[str, Any], key: str, limit: int = TEXT_LIMIT) -> str | None:
    value = source.get(key)
    return bound_text(value, limit) if isinstance(value, str) and value.strip() else None


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.job_id)


def _touch(row: JobListRow, info: EventInfo, **changes: Any) -> JobListRow:
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_discovered(row: JobListRow | None, event: JobDiscovered, info: EventInfo) -> JobListRow:
    if row is not None:
        return row  # a job is discovered once; later observations are JobSourceObserved
    return JobListRow(
        tenant_id=info.tenant_id,
        job_id=event.job_id,
        title=text_field(event.metadata, "title"),
        employer=bound_text(event.employer, TEXT_LIMIT),
        source=bound_text(event.source, TEXT_LIMIT),
        location=text_field(event.metadata, "location"),
        description_preview=None,
        fit_score=None,
        fit_band=None,
        score_version=None,
        keywords_json="[]",
        active_state="unknown",
        hidden=False,
        deleted=False,
        discovered_at=utc_or_none(event.discovered_at),
        enriched_at=None,
        scored_at=None,
        last_event_position=info.position,
        updated_at=info.at,
    )


def on_updated(row: JobListRow | None, event: JobUpdated, info: EventInfo) -> JobListRow | None:
    if row is None:
        return row
    changed = event.changed_fields
    return _touch(
        row,
        info,
        title=text_field(changed, "title") or row.title,
        employer=text_field(changed, "employer") or row.employer,
        location=text_field(changed, "location") or row.location,
    )


def _flag(**flags: bool) -> Any:
    def apply(row: JobListRow | None, event: Any, info: EventInfo) -> JobListRow | None:
        return None if row is None else _touch(row, info, **flags)

    return apply


def on_enriched(row: JobListRow | None, event: JobEnriched, info: EventInfo) -> JobListRow | None:
    if row is None:
        return row
    preview = bound_text(event.full_description, PREVIEW_LIMIT) or None
    return _touch(row, info, description_preview=preview, enriched_at=utc_or_none(event.enriched_at))


def on_scored(row: JobListRow | None, event: JobScored, info: EventInfo) -> JobListRow | None:
    if row is None or (row.score_version is not None and event.version < row.score_version):
        return row  # a late, older score version never replaces a newer one
    keywords = [bound_text(k, 60) for k in event.keywords[:KEYWORDS_LIMIT]]
    return _touch(
        row,
        info,
        fit_score=event.fit_score,
        fit_band=bound_text(event.fit_band, 40) if event.fit_band else None,
        score_version=event.version,
        keywords_json=_encoder.encode(keywords).decode(),
        scored_at=utc_or_none(event.scored_at),
    )


def on_corrected(row: JobListRow | None, event: ScoreCorrected, info: EventInfo) -> JobListRow | None:
    if row is None:
        return row
    return _touch(row, info, fit_score=event.corrected_score, scored_at=utc_or_none(event.corrected_at))


def on_active_state(
    row: JobListRow | None, event: JobActiveStateChanged, info: EventInfo
) -> JobListRow | None:
    return None if row is None else _touch(row, info, active_state=event.active_state)


PROJECTION = Projection(
    name="job_list",
    tables=(JOB_LIST,),
    folds=(
        Fold(JobDiscovered, JOB_LIST, _key, on_discovered),
        Fold(JobUpdated, JOB_LIST, _key, on_updated),
        Fold(JobDeleted, JOB_LIST, _key, _flag(deleted=True)),
        Fold(JobRestored, JOB_LIST, _key, _flag(deleted=False)),
        Fold(JobHidden, JOB_LIST, _key, _flag(hidden=True)),
        Fold(JobUnhidden, JOB_LIST, _key, _flag(hidden=False)),
        Fold(JobEnriched, JOB_LIST, _key, on_enriched),
        Fold(JobScored, JOB_LIST, _key, on_scored),
        Fold(ScoreCorrected, JOB_LIST, _key, on_corrected),
        Fold(JobActiveStateChanged, JOB_LIST, _key, on_active_state),
    ),
    creates_rows_on=frozenset({"JobDiscovered"}),
)
