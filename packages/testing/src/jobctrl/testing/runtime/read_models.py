"""Proof that read models kept by the projection runner equal a clean rebuild of the log.

``clean_rebuild_digests(db, fresh)`` copies ``db``'s event log, row for row and position for
position, into ``fresh`` (an empty database) and rebuilds every read model there from it alone: no
watermark, row cache or table of ``db`` takes part.  ``differing_read_models(db, fresh)`` names the
tables whose digests (every row in primary-key order) differ between the two, so a projection that
double-applied, missed or altered an event shows up by name.
"""

from __future__ import annotations

import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections import read_status, rebuild
from jobctrl.projections.digest import table_digests

_BATCH = 2_000


def copy_log(source: Database, target: Database) -> int:
    """Append ``source``'s whole ``job_events`` to the empty log of ``target``; returns the row count."""
    EventStore(target, registry()).create_schema()
    copied, after = 0, 0
    while True:
        with source.read() as conn:
            rows = [
                dict(r)
                for r in conn.execute(
                    sa.select(job_events)
                    .where(job_events.c.position > after)
                    .order_by(job_events.c.position)
                    .limit(_BATCH)
                ).mappings()
            ]
        if not rows:
            return copied
        with target.write() as conn:
            conn.execute(sa.insert(job_events), rows)
        copied += len(rows)
        after = rows[-1]["position"]


def clean_rebuild_digests(db: Database, fresh: Database) -> dict[str, str]:
    """The read-model digests of a rebuild of ``db``'s log inside the empty database ``fresh``."""
    copy_log(db, fresh)
    result = rebuild(fresh, registry())
    if result.skipped:
        raise AssertionError(f"the clean rebuild skipped {result.skipped} events")
    return table_digests(fresh)


def differing_read_models(db: Database, fresh: Database) -> list[str]:
    """Tables of ``db`` whose rows differ from a clean rebuild of its log in ``fresh`` (none: equal).

    ``db``'s runner must be at the log head with nothing skipped, else the comparison would be
    between two different prefixes of the log."""
    status = read_status(db)
    if status.watermark != status.head or status.skipped:
        raise AssertionError(
            f"read models not at the head: {status.watermark}/{status.head}, {status.skipped} skipped"
        )
    kept = table_digests(db)
    rebuilt = clean_rebuild_digests(db, fresh)
    return sorted(t for t in kept.keys() | rebuilt.keys() if kept.get(t) != rebuilt.get(t))
