"""``discovery_execution_member_groups``: an execution's members counted by group (ADR 0445).

A group is what the operations snapshot needs of a member: its cohort, plan state and required steps
(its ``discovery_execution_jobs`` row) and the state of each per-job stage (its ``job_stage_states``
rows; ``''`` where the job has no row for the stage), plus the reason of a canceled Score row.  The
table always equals ``member_group_select`` over the two source tables: the ``GROUP BY`` the snapshot
used to run over every member on each cold read (four primary-key probes per member).

The fold engine is its one writer, in the transaction that writes the source rows: before it writes
the member and stage rows a flush changed, it counts the groups of the jobs those rows belong to
(every execution the job is a member of), and again after, and moves the difference into the table
(``settle``).  A group that reaches zero loses its row.  A rebuild, a catch-up on empty tables and
the migration that creates the table fill it with the whole ``GROUP BY`` instead (``refill``).  The
two projections it joins fold under one watermark in one transaction, so the difference is exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import msgspec
import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.projections.model import ReadModelTable
from jobctrl.projections.schema import execution_key_columns, metadata

#: the per-job stages a member's group records the state of, in column order
GROUP_STAGES: tuple[str, ...] = ("enrich", "score", "tailor", "cover")
#: the tables a member's group is read from: the members, then their stage rows
SOURCES: tuple[str, str] = ("discovery_execution_jobs", "job_stage_states")
NO_ROW = ""  # the state (and cancel reason) of a stage the job has no row for
_CHUNK = 400  # jobs per ``IN`` list

discovery_execution_member_groups = sa.Table(
    "discovery_execution_member_groups",
    metadata,
    *execution_key_columns(),
    sa.Column("cohort", sa.String(20), primary_key=True),
    sa.Column("plan_state", sa.String(20), primary_key=True),
    sa.Column("required_steps_json", sa.Text, primary_key=True),
    *(sa.Column(f"state_{stage}", sa.String(20), primary_key=True) for stage in GROUP_STAGES),
    sa.Column("score_cancel", sa.String(500), primary_key=True),
    sa.Column("member_count", sa.BigInteger, nullable=False),
)


class MemberGroupRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    workflow_id: str
    run_id: str
    cohort: str
    plan_state: str
    required_steps_json: str
    state_enrich: str
    state_score: str
    state_tailor: str
    state_cover: str
    score_cancel: str  # the reason of a canceled Score row, else ''
    member_count: int


MEMBER_GROUPS = ReadModelTable(discovery_execution_member_groups, MemberGroupRow)
_WIDTH = len(discovery_execution_member_groups.primary_key.columns)
Groups = Counter[tuple[Any, ...]]


def member_group_select(members: sa.Table, stages: sa.Table, *, some_jobs: bool = False) -> sa.Select[Any]:
    """``SELECT <execution>, <group>, count(*)`` over ``members`` joined to ``stages`` (physical
    tables: the live ones or a rebuild's shadows).  ``some_jobs``: only the members whose job is in
    the expanding parameter ``jobs`` of tenant ``tenant_id``."""
    m = members.alias("m")
    joined: sa.FromClause = m
    states: list[sa.ColumnElement[Any]] = []
    cancel: sa.ColumnElement[Any] | None = None
    for stage in GROUP_STAGES:
        s = stages.alias(f"s_{stage}")
        joined = joined.outerjoin(
            s, sa.and_(s.c.tenant_id == m.c.tenant_id, s.c.job_id == m.c.job_id, s.c.stage == stage)
        )
        states.append(sa.func.coalesce(s.c.state, NO_ROW))
        if stage == "score":
            cancel = sa.func.coalesce(sa.case((s.c.state == "canceled", s.c.reason), else_=sa.null()), NO_ROW)
    assert cancel is not None
    member: list[sa.ColumnElement[Any]] = [
        m.c.tenant_id,
        m.c.workflow_id,
        m.c.run_id,
        m.c.cohort,
        m.c.plan_state,
        m.c.required_steps_json,
    ]
    keys = [*member, *states, cancel]
    query = sa.select(*keys, sa.func.count()).select_from(joined).group_by(*keys)
    if some_jobs:
        query = query.where(
            m.c.tenant_id == sa.bindparam("tenant_id"),
            m.c.job_id.in_(sa.bindparam("jobs", expanding=True)),
        )
    return query


def _count_groups(
    conn: Connection, query: sa.Select[Any], jobs: Mapping[str, list[str]], into: Groups
) -> None:
    for tenant, ids in jobs.items():
        for start in range(0, len(ids), _CHUNK):
            for *group, n in conn.execute(query, {"tenant_id": tenant, "jobs": ids[start : start + _CHUNK]}):
                into[tuple(group)] += int(n)


def _group_part(row: Any) -> tuple[str, str | None] | None:
    """What of a stage row a member's group records: its state, and the reason of a canceled Score."""
    if row is None:
        return None
    return (row.state, row.reason if row.stage == "score" and row.state == "canceled" else None)


def affected_jobs(
    member_keys: Iterable[Hashable],
    stage_origins: Mapping[Hashable, Any],
    stage_rows: Mapping[Hashable, Any],
) -> dict[str, list[str]]:
    """Per tenant, the jobs whose group may change in a write: each job with a member row written,
    and each job with a row of a ``GROUP_STAGES`` stage whose state (or canceled Score reason) is
    not what it was before the write (``stage_origins``: key -> row before, ``None`` for none;
    ``stage_rows``: key -> row now).  Any other write leaves every member's group as it was."""
    jobs: dict[str, set[str]] = {}
    for key in member_keys:
        tenant, job = key[0], key[3]  # type: ignore[index]
        jobs.setdefault(tenant, set()).add(job)
    for key, before in stage_origins.items():
        tenant, job, stage = cast(tuple[str, str, str], key)
        if stage in GROUP_STAGES and _group_part(before) != _group_part(stage_rows.get(key)):
            jobs.setdefault(tenant, set()).add(job)
    return {tenant: sorted(ids) for tenant, ids in jobs.items()}


@contextmanager
def settle(
    conn: Connection,
    members: sa.Table,
    stages: sa.Table,
    target: sa.Table,
    jobs: Mapping[str, list[str]],
    created: dict[str, int],
) -> Iterator[None]:
    """Around the write of the source rows of ``jobs``: move the change of their groups into
    ``target``, counting created minus deleted rows into ``created``.

    Counting the jobs' groups before and after costs two lookups per job; when the jobs are as many
    as half the members (a catch-up's long transaction), one ``GROUP BY`` of every member after the
    write costs less, and ``refill`` gives the same rows."""
    if not jobs:
        yield
        return
    if 2 * sum(len(ids) for ids in jobs.values()) >= _member_total(conn):
        yield
        refill(conn, members, stages, target, created)
        return
    query = member_group_select(members, stages, some_jobs=True)
    before: Groups = Counter()
    _count_groups(conn, query, jobs, before)
    yield
    after: Groups = Counter()
    _count_groups(conn, query, jobs, after)
    delta = {g: after[g] - before[g] for g in before.keys() | after.keys() if after[g] != before[g]}
    if delta:
        apply_delta(conn, target, delta, created)


def _member_total(conn: Connection) -> int:
    """How many member rows the tables hold, from the kept per-execution key counts (ADR 0132):
    a few rows, where ``count(*)`` of the members would read every one."""
    counts = metadata.tables["discovery_execution_member_digests"].c.key_count
    return int(conn.execute(sa.select(sa.func.coalesce(sa.func.sum(counts), 0))).scalar_one())


def apply_delta(
    conn: Connection, target: sa.Table, delta: Mapping[tuple[Any, ...], int], created: dict[str, int]
) -> None:
    """Add ``delta`` (group -> change of its count) to ``target``'s rows: each changed group's row
    is deleted and, unless its count reached zero, inserted again with the new count."""
    kept = _load(conn, target, list(delta))
    gone: list[tuple[Any, ...]] = []
    rows: list[tuple[Any, ...]] = []
    for group, d in delta.items():
        old = kept.get(group)
        if old is None and d < 0:
            continue  # nothing counted to take from: the table already disagrees (healing finds it)
        if old is not None:
            gone.append(group)
        n = (old or 0) + d
        if n > 0:
            rows.append((*group, n))
        created[target.name] += (n > 0) - (old is not None)
    keys = list(target.primary_key.columns)
    if gone:
        by_key = sa.and_(*(c == sa.bindparam(f"k_{c.name}") for c in keys))
        conn.execute(
            sa.delete(target).where(by_key),
            [{f"k_{c.name}": v for c, v in zip(keys, g, strict=True)} for g in gone],
        )
    if rows:
        names = [c.name for c in target.columns]
        conn.execute(sa.insert(target), [dict(zip(names, row, strict=True)) for row in rows])


def _load(
    conn: Connection, target: sa.Table, groups: Iterable[tuple[Any, ...]]
) -> dict[tuple[Any, ...], int]:
    """The kept counts of ``groups``' executions (an execution has a handful of group rows)."""
    executions = {g[:3] for g in groups}
    c = target.c
    out: dict[tuple[Any, ...], int] = {}
    for tenant, workflow, run in executions:
        rows = conn.execute(
            sa.select(target).where(c.tenant_id == tenant, c.workflow_id == workflow, c.run_id == run)
        )
        for *group, n in rows:
            out[tuple(group)] = int(n)
    return out


def refill(
    conn: Connection,
    members: sa.Table,
    stages: sa.Table,
    target: sa.Table,
    created: dict[str, int] | None = None,
) -> None:
    """Replace ``target``'s rows by the whole ``GROUP BY`` of the source rows, in the caller's
    transaction (a rebuild's swap, a catch-up on empty tables, the bench's and tests' seeds)."""
    count = sa.select(sa.func.count()).select_from(target)
    had = int(conn.execute(count).scalar_one()) if created is not None else 0
    conn.execute(sa.delete(target))
    conn.execute(
        sa.insert(target).from_select([c.name for c in target.columns], member_group_select(members, stages))
    )
    if created is not None:
        created[target.name] += int(conn.execute(count).scalar_one()) - had


def groups_agree(conn: Connection, members: sa.Table, stages: sa.Table, target: sa.Table) -> bool:
    """Whether the kept groups equal the ``GROUP BY`` of the source rows now (``--verify``)."""
    kept = {tuple(r[:-1]): int(r[-1]) for r in conn.execute(sa.select(target))}
    return kept == {tuple(r[:-1]): int(r[-1]) for r in conn.execute(member_group_select(members, stages))}
