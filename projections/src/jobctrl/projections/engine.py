"""Folding one batch of log rows into read-model tables, inside the caller's transaction.

Per batch: decode the events that some fold handles (msgspec, through the registry; see
``decoding``), collect the keys they touch, load those rows with one query per table, run the pure
folds in log order in memory, then write the changed rows with one ``executemany`` upsert per table.
A cache that needs no lookups (complete, ADR 0232) folds each event as it is decoded, and one whose
tables hold none of its rows yet (fresh) writes its rows whole instead of tracking changes (ADR 0415).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry
from jobctrl.projections.decoding import LOG_COLUMNS, LogRow, Skipped, decoding, read_log
from jobctrl.projections.groupcount import load_all, regroup
from jobctrl.projections.keydigest import EMPTY, DigestRow, shift
from jobctrl.projections.model import DELETED, EventInfo, Fold, GroupCount, KeyDigest, Projection
from jobctrl.projections.read_models import member_groups
from jobctrl.projections.rowcache import DigestChange, RowCache
from jobctrl.projections.schema import projection_row_counts, projection_skipped_events
from jobctrl.projections.sqlutil import insert_ignore_statement
from jobctrl.projections.tableio import TableIO

__all__ = ["LOG_COLUMNS", "FoldEngine", "LogRow", "Skipped", "read_log"]

DigestHook = Callable[[Connection, list[DigestChange]], None]

Dispatch = tuple[tuple[str, Callable[[Any, EventInfo], Hashable], Callable[[Any, Any, EventInfo], Any]], ...]
#: One fold of an event type bound to a batch's state (ADR 0370): (key, apply, known rows, changed
#: rows or ``None`` for a fresh cache (ADR 0415), key digest, first rows before this transaction or
#: ``None`` without group counts, table name).
Step = tuple[
    Callable[[Any, EventInfo], Hashable],
    Callable[[Any, Any, EventInfo], Any],
    dict[Hashable, Any],
    dict[Hashable, Any] | None,
    KeyDigest | None,
    dict[Hashable, Any] | None,
    str,
]
Steps = tuple[Step, ...]


class FoldEngine:
    def __init__(
        self,
        registry: EventRegistry,
        projections: Sequence[Projection],
        *,
        on_digest_change: DigestHook | None = None,
        group_counts: bool = True,
    ) -> None:
        self.registry = registry
        self.projections = tuple(projections)
        # Source table -> its key digest; ``on_digest_change`` sees every change an incremental fold
        # (no cache: not a rebuild) made, in the same transaction (the recovery proof, ADR 0132).
        self._digests: dict[str, KeyDigest] = {d.source: d for p in self.projections for d in p.key_digests}
        self.on_digest_change = on_digest_change
        # Source table -> its group counts, moved with each row change in the same write (ADR 0345).
        # A rebuild fills them from its shadows with one GROUP BY instead (``group_counts=False``,
        # ADR 0351).
        self._groups: dict[str, GroupCount] = (
            {g.source: g for p in self.projections for g in p.group_counts} if group_counts else {}
        )
        # Each execution's member groups (ADR 0445), settled around every write of member or stage
        # rows when the engine folds both (the runner); a rebuild refills them at its swap.
        self._member_groups = group_counts and {
            member_groups.MEMBER_GROUPS.name,
            *member_groups.SOURCES,
        } <= {t.name for p in self.projections for t in p.tables}
        by_type: dict[str, list[Fold[Any, Any]]] = defaultdict(list)
        for projection in self.projections:
            for fold in projection.folds:
                by_type[fold.event.event_type].append(fold)
        # Per event type: (table name, key, apply) of each fold, resolved once.
        self._dispatch: dict[str, Dispatch] = {
            k: tuple((f.target.name, f.key, f.apply) for f in v) for k, v in by_type.items()
        }
        self.tables = {t.name: t for p in self.projections for t in p.tables}
        # Direct decoders for folded types at their current schema version (older versions go through
        # the registry, which upcasts).
        self._decoders: dict[str, tuple[int, msgspec.json.Decoder[Any]]] = {
            name: (cls.schema_version, msgspec.json.Decoder(cls))
            for name in self._dispatch
            for cls in (registry.class_for(name),)
        }
        self._io: dict[tuple[str, str], TableIO] = {}

    def _table_io(self, table: sa.Table, dialect: str) -> TableIO:
        io = self._io.get((table.name, dialect))
        if io is None:
            io = self._io[(table.name, dialect)] = TableIO(table, dialect)
        return io

    def fold(
        self,
        conn: Connection,
        log: Sequence[LogRow],
        targets: Mapping[str, sa.Table],
        *,
        watermark: str,
        cache: RowCache | None = None,
    ) -> list[Skipped]:
        """Fold ``log`` (ascending positions) into ``targets`` (logical table name → physical table)."""
        known = cache.rows if cache is not None else defaultdict(dict)
        dirty: dict[str, dict[Hashable, Any]] = cache.dirty if cache is not None else defaultdict(dict)
        changes: list[DigestChange] = cache.changes if cache is not None else []
        # rows created minus rows deleted, per table
        created: dict[str, int] = cache.created if cache is not None else defaultdict(int)
        # per table with group counts: each key's row before its first change in this transaction
        origins: dict[str, dict[Hashable, Any]] = cache.origins if cache is not None else defaultdict(dict)
        hooked = self.on_digest_change is not None
        # A fresh cache's rows are all unwritten, so its flush writes them whole: no change is
        # tracked per event (ADR 0415).
        fresh = cache is not None and cache.fresh
        # Each event type's folds bound to their table's known rows, changed rows, key digest and
        # origins once per batch (ADR 0370); each key is computed where its fold runs (ADR 0290).
        bound: dict[str, Steps] = {
            event_type: tuple(
                (
                    key_of,
                    apply,
                    known[name],
                    None if fresh else dirty[name],
                    self._digests.get(name),
                    origins[name] if name in self._groups else None,
                    name,
                )
                for name, key_of, apply in dispatch
            )
            for event_type, dispatch in self._dispatch.items()
        }
        skipped: list[Skipped] = []
        decoded: Iterable[tuple[Any, EventInfo, Steps]] = decoding(
            log, bound, self._decoders, self.registry, skipped
        )
        if cache is None or not cache.complete:
            decoded = list(decoded)
            self._load(conn, decoded, known, targets, conn.dialect.name)
        # else every row of these tables is in the cache: a key missing there has no row, so there
        # is nothing to look up and nothing to load (ADR 0232), and each event is folded as it is
        # decoded, with no list of the batch's events (ADR 0415).
        for event, info, steps in decoded:
            for key_of, apply, rows, changed, digest, origin, name in steps:
                key = key_of(event, info)
                before = rows.get(key)
                after = apply(before, event, info)
                if after is before:
                    continue
                if after is DELETED:
                    if before is None:
                        continue
                    rows[key] = None
                    if changed is not None:
                        changed[key] = DELETED
                    if origin is not None and key not in origin:
                        origin[key] = before
                    sign = -1
                elif after is None:
                    continue
                else:
                    rows[key] = after
                    if changed is not None:
                        changed[key] = after
                    if origin is not None and key not in origin:
                        origin[key] = before
                    if before is not None:
                        continue
                    sign = 1
                created[name] += sign
                if digest is not None:
                    change = self._count(digest, key, sign, known, dirty, created)  # type: ignore[arg-type]
                    if hooked:
                        changes.append(change)
        if cache is None:
            jobs = self._regrouped_jobs(origins, known, dirty)
            self._regroup(origins, known, dirty, created)
            self._write_settled(conn, dirty, targets, created, jobs)
            self._count_rows(conn, created)
            if changes and self.on_digest_change is not None:
                self.on_digest_change(conn, changes)
        elif cache.size() > cache.capacity:
            self.flush(conn, cache, targets)
            cache.clear_rows()
            cache.complete = False
        if skipped:
            conn.execute(
                insert_ignore_statement(conn, projection_skipped_events),
                [
                    {
                        "watermark": watermark,
                        "position": s.position,
                        "event_type": s.event_type[:100],
                        "reason": s.reason,
                    }
                    for s in skipped
                ],
            )
        return skipped

    def _regroup(
        self,
        origins: dict[str, dict[Hashable, Any]],
        known: dict[str, dict[Hashable, Any]],
        dirty: dict[str, dict[Hashable, Any]],
        created: dict[str, int],
    ) -> None:
        """Move each changed row's unit from its group before the transaction to its group now
        (ADR 0345), once per row however many events changed it (ADR 0370)."""
        for name, origin in origins.items():
            grouping, rows = self._groups[name], known[name]
            for key, before in origin.items():
                regroup(grouping, before, rows.get(key), known, dirty, created)
            origin.clear()

    def _load(
        self,
        conn: Connection,
        decoded: list[tuple[Any, EventInfo, Steps]],
        known: dict[str, dict[Hashable, Any]],
        targets: Mapping[str, sa.Table],
        dialect: str,
    ) -> None:
        """Load the rows the batch touches that ``known`` lacks, with one query per table (a key
        without a row is known as ``None``)."""
        wanted: dict[str, list[Hashable]] = defaultdict(list)
        # per table: its digest table's known rows and wanted keys (once per batch, not per event)
        for_digest = {
            name: (known[d.target.name], wanted[d.target.name]) for name, d in self._digests.items()
        }
        for event, info, steps in decoded:
            for key_of, _apply, rows, _changed, digest, _origin, name in steps:
                key = key_of(event, info)
                if key in rows:
                    continue  # loaded (or created) earlier in this transaction, with its digest row
                # Known as "no row" until the load below finds it: each key is wanted once (ADR 0370).
                rows[key] = None
                wanted[name].append(key)
                if digest is not None:
                    have, want = for_digest[name]
                    group = key[:3]  # type: ignore[index]
                    if group not in have:
                        have[group] = None
                        want.append(group)
        for name, grouping in self._groups.items():
            target = grouping.target
            if (wanted.get(name) or known[name]) and not known[target.name]:
                # A count table holds a row per group, a handful: read it whole, once.
                load_all(conn, targets[target.name], target.row, known[target.name])
                known[target.name][()] = None  # loaded (even if empty); no group is ``()``
        for name, keys in wanted.items():
            if not keys:
                continue
            io = self._table_io(targets[name], dialect)
            row_cls = self.tables[name].row
            store = known[name]
            for record in io.load(conn, keys):
                store[io.key_of(record)] = row_cls(*record)

    @staticmethod
    def _count(
        digest: KeyDigest,
        key: tuple[Any, ...],
        sign: int,
        known: dict[str, dict[Hashable, Any]],
        dirty: dict[str, dict[Hashable, Any]],
        created: dict[str, int],
    ) -> DigestChange:
        """Add (or remove) one source key to its execution's digest row."""
        name, group, term = digest.target.name, key[:3], digest.term(key)
        row: DigestRow | None = known[name].get(group)
        if row is None:
            row = DigestRow(group[0], group[1], group[2], 0, EMPTY)
            created[name] += 1
        row = DigestRow(
            row.tenant_id,
            row.workflow_id,
            row.run_id,
            row.key_count + sign,
            shift(row.key_digest, term, sign),
        )
        known[name][group] = row
        dirty[name][group] = row
        return (name, group, term, sign)

    @staticmethod
    def _count_rows(conn: Connection, created: Mapping[str, int]) -> None:
        """Advance the tables' row counters (ADR 0133).  A table without a counter row has none yet:
        start-up verification or a rebuild sets it from the table itself."""
        t = projection_row_counts
        for name, delta in created.items():
            if delta:
                conn.execute(
                    sa.update(t).where(t.c.table_name == name).values(row_count=t.c.row_count + delta)
                )

    def flush(self, conn: Connection, cache: RowCache, targets: Mapping[str, sa.Table]) -> None:
        """Write the rows a cached fold changed (see ``RowCache``), with their group counts."""
        jobs = self._regrouped_jobs(cache.origins, cache.rows, cache.dirty)
        self._regroup(cache.origins, cache.rows, cache.dirty, cache.created)
        if cache.fresh:
            # None of these rows is in the tables yet: write every row the cache has (a key known
            # as "no row" writes nothing), then track changes as usual (ADR 0415).
            self._write_all(conn, cache.rows, targets)
            if self._member_groups:  # every member is new: count them all (ADR 0445)
                members, stages = (targets[n] for n in member_groups.SOURCES)
                target = targets[member_groups.MEMBER_GROUPS.name]
                member_groups.refill(conn, members, stages, target, cache.created)
            cache.fresh = False
        else:
            self._write_settled(conn, cache.dirty, targets, cache.created, jobs)
        cache.clear_dirty()

    def commit(self, conn: Connection, cache: RowCache, targets: Mapping[str, sa.Table]) -> None:
        """What an uncached fold does after each batch, once for every batch folded into ``cache``
        in this transaction: write the changed rows, advance the row counters, report the key
        digest changes (ADR 0350)."""
        self.flush(conn, cache, targets)
        self._count_rows(conn, cache.created)
        if cache.changes and self.on_digest_change is not None:
            self.on_digest_change(conn, cache.changes)

    def _regrouped_jobs(
        self,
        origins: Mapping[str, dict[Hashable, Any]],
        known: Mapping[str, dict[Hashable, Any]],
        dirty: Mapping[str, dict[Hashable, Any]],
    ) -> dict[str, list[str]]:
        """The jobs whose members may change group in this write (ADR 0445); read before
        ``_regroup`` clears the stage rows' origins."""
        if not self._member_groups:
            return {}
        members, stages = member_groups.SOURCES
        return member_groups.affected_jobs(
            dirty.get(members, {}), origins.get(stages, {}), known.get(stages, {})
        )

    def _write_settled(
        self,
        conn: Connection,
        dirty: Mapping[str, dict[Hashable, Any]],
        targets: Mapping[str, sa.Table],
        created: dict[str, int],
        jobs: dict[str, list[str]],
    ) -> None:
        """``_write``, with the member groups of ``jobs`` moved along (ADR 0445)."""
        if not jobs:
            self._write(conn, dirty, targets)
            return
        members, stages = member_groups.SOURCES
        target = targets[member_groups.MEMBER_GROUPS.name]
        with member_groups.settle(conn, targets[members], targets[stages], target, jobs, created):
            self._write(conn, dirty, targets)

    def _write(
        self, conn: Connection, dirty: Mapping[str, dict[Hashable, Any]], targets: Mapping[str, sa.Table]
    ) -> None:
        dialect = conn.dialect.name
        astuple = msgspec.structs.astuple
        for name, changed in dirty.items():
            io = self._table_io(targets[name], dialect)
            gone = [key for key, row in changed.items() if row is DELETED]
            if gone:
                io.delete(conn, gone)
            kept = [astuple(row) for row in changed.values() if row is not DELETED]
            if kept:
                io.upsert(conn, kept)

    def _write_all(
        self, conn: Connection, rows: Mapping[str, dict[Hashable, Any]], targets: Mapping[str, sa.Table]
    ) -> None:
        dialect = conn.dialect.name
        astuple = msgspec.structs.astuple
        for name, known in rows.items():
            # A row is a Struct (always true), a key known as "no row" is None: filter in C.
            kept = list(map(astuple, filter(None, known.values())))
            if kept:
                self._table_io(targets[name], dialect).upsert(conn, kept)
