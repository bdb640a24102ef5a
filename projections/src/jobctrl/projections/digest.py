"""A stable digest of read-model tables (rows in primary-key order), to prove two folds identical."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.store.database import Database
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.model import Projection

_encoder = msgspec.json.Encoder()


def table_digests(db: Database, projections: Sequence[Projection] = OPERATIONS) -> dict[str, str]:
    digests: dict[str, str] = {}
    with db.read() as conn:
        for projection in projections:
            for table in projection.tables:
                t = table.table
                h = hashlib.sha256()
                order = list(t.primary_key.columns)
                for row in conn.execute(sa.select(t).order_by(*order)):
                    h.update(_encoder.encode(list(row)))
                    h.update(b"\n")
                digests[t.name] = h.hexdigest()
    return digests
