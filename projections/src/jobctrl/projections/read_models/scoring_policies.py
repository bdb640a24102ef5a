"""``scoring_policy_projections``: the current version of each scoring policy (tenant, policy id).

``ScoringPolicyUpdated`` carries the settings themselves, so the current policy is a fold of the log:
a higher ``policyVersion`` replaces the row, an equal or lower one (a late or repeated event) is
ignored.  Score rows whose ``scorePolicyVersion`` is below ``policy_version`` here are stale.
"""

from __future__ import annotations

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none
from jobctrl.scoring.events import ScoringPolicyUpdated

_CRITERIA_LIMIT = 4000
_FIELDS_LIMIT = 40

scoring_policy_projections = sa.Table(
    "scoring_policy_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("policy_id", sa.String(200), primary_key=True),
    sa.Column("policy_version", sa.Integer, nullable=False),
    sa.Column("previous_policy_version", sa.Integer, nullable=True),
    sa.Column("policy_fingerprint", sa.String(128), nullable=False),
    sa.Column("changed_fields_json", sa.Text, nullable=False),
    sa.Column("criteria", sa.Text, nullable=False),
    sa.Column("strong_band_min", sa.Integer, nullable=False),
    sa.Column("good_band_min", sa.Integer, nullable=False),
    sa.Column("stretch_band_min", sa.Integer, nullable=False),
    sa.Column("versions_seen", sa.Integer, nullable=False),
    sa.Column("policy_updated_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ScoringPolicyRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    policy_id: str
    policy_version: int
    previous_policy_version: int | None
    policy_fingerprint: str
    changed_fields_json: str
    criteria: str
    strong_band_min: int
    good_band_min: int
    stretch_band_min: int
    versions_seen: int
    policy_updated_at: str | None
    last_event_position: int
    updated_at: str | None


SCORING_POLICIES = ReadModelTable(scoring_policy_projections, ScoringPolicyRow)
_encoder = msgspec.json.Encoder()


def _key(event: ScoringPolicyUpdated, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.policy_id)


def on_policy_updated(
    row: ScoringPolicyRow | None, event: ScoringPolicyUpdated, info: EventInfo
) -> ScoringPolicyRow:
    if row is not None and event.policy_version <= row.policy_version:
        return row  # a late or repeated version never replaces a newer one
    fields = sorted({bound_text(f, 80) for f in event.changed_fields})[:_FIELDS_LIMIT]
    return ScoringPolicyRow(
        tenant_id=info.tenant_id,
        policy_id=bound_text(event.policy_id, 200),
        policy_version=event.policy_version,
        previous_policy_version=event.previous_policy_version,
        policy_fingerprint=bound_text(event.policy_fingerprint, 128),
        changed_fields_json=_encoder.encode(fields).decode(),
        criteria=bound_text(event.criteria, _CRITERIA_LIMIT, keep_newlines=True),
        strong_band_min=event.strong_band_min,
        good_band_min=event.good_band_min,
        stretch_band_min=event.stretch_band_min,
        versions_seen=(row.versions_seen if row is not None else 0) + 1,
        policy_updated_at=utc_or_none(event.updated_at),
        last_event_position=info.position,
        updated_at=info.at,
    )


PROJECTION = Projection(
    name="scoring_policies",
    tables=(SCORING_POLICIES,),
    folds=(Fold(ScoringPolicyUpdated, SCORING_POLICIES, _key, on_policy_updated),),
    creates_rows_on=frozenset({"ScoringPolicyUpdated"}),
)
