"""The shape of a projection: read-model tables, rows and pure per-event folds.

A *fold* says, for one event type, which row of which read-model table the event touches (its key)
and how the row changes (``apply``).  ``apply`` is pure: it gets the current row (or ``None``), the
decoded event and the event's log facts, and returns the new row.  Returning the very same object
means "no change" (so an ignored event, such as a late lower attempt or a duplicate terminal,
writes nothing) and returning ``DELETED`` removes the row.
The engine does all I/O: it loads the rows a batch touches, runs the folds in log order and writes
the changed rows with the watermark in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.events import DomainEvent, EventMetadata
from jobctrl.projections.times import utc_or_none

E = TypeVar("E", bound=DomainEvent)
R = TypeVar("R", bound=msgspec.Struct)

_EMPTY_META = EventMetadata(event_id="")
_meta_decoder = msgspec.json.Decoder(EventMetadata)


class EventInfo(msgspec.Struct, gc=False):
    """What the log says about an event besides its payload.  Metadata is decoded only when asked.

    A Struct (built in C, untracked by the cyclic GC: scalars only) because the engine makes one per
    folded event (ADR 0350); ``at`` is the normalised ``occurred_at`` that most folds stamp their
    row with.  Build one with ``EventInfo.of`` (which normalises); the engine passes ``at`` itself."""

    position: int
    event_type: str
    tenant_id: str
    occurred_at: str
    at: str | None
    raw_meta: bytes | str
    decoded_meta: EventMetadata | None = None

    @classmethod
    def of(
        cls, position: int, event_type: str, tenant_id: str, occurred_at: str, raw_meta: bytes | str
    ) -> EventInfo:
        return cls(position, event_type, tenant_id, occurred_at, utc_or_none(occurred_at), raw_meta)

    @property
    def meta(self) -> EventMetadata:
        if self.decoded_meta is None:
            try:
                self.decoded_meta = _meta_decoder.decode(self.raw_meta)
            except msgspec.DecodeError:  # metadata is advisory; a bad blob never blocks a fold
                self.decoded_meta = _EMPTY_META
        return self.decoded_meta


class _Deleted:
    """Returned by a fold to remove its row (e.g. erasure of a deleted contact)."""

    def __repr__(self) -> str:
        return "DELETED"


DELETED: Any = _Deleted()


@dataclass(frozen=True)
class ReadModelTable(Generic[R]):
    """A read-model table and the Struct its rows fold into (field names are column names)."""

    table: sa.Table
    row: type[R]

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def key_columns(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.table.primary_key.columns)

    @cached_property
    def _nulls(self) -> dict[str, None]:
        defaults = {f.name for f in msgspec.structs.fields(self.row) if f.default is not msgspec.NODEFAULT}
        return {c.name: None for c in self.table.columns if c.nullable and c.name not in defaults}

    @cached_property
    def _template(self) -> tuple[R, frozenset[str]]:
        """A row of every field's default (NULL where it has none) and the fields ``blank`` must be
        given: the NOT NULL columns without a default."""
        fields = msgspec.structs.fields(self.row)
        template = self.row(*(None if f.default is msgspec.NODEFAULT else f.default for f in fields))
        nulls = self._nulls
        required = frozenset(f.name for f in fields if f.default is msgspec.NODEFAULT and f.name not in nulls)
        return template, required

    def blank(self, **values: Any) -> R:
        """A new row: ``values`` in the columns they name, the Struct's default where it has one and
        NULL in every other nullable column.

        The one rule for a row's first fold: what the event does not say is unknown.  A NOT NULL
        column without a default must be named.  Built by ``replace`` on a template row (ADR 0370)."""
        template, required = self._template
        if not required <= values.keys():
            missing = ", ".join(sorted(required - values.keys()))
            raise TypeError(f"{self.row.__name__} needs {missing}")
        return msgspec.structs.replace(template, **values)

    def check_shape(self) -> None:
        fields = tuple(msgspec.structs.fields(self.row))
        columns = tuple(c.name for c in self.table.columns)
        if tuple(f.name for f in fields) != columns:
            raise TypeError(f"{self.row.__name__} fields do not match {self.name} columns")
        # Rows hold column values only (scalars: no reference cycles), and a rebuild keeps hundreds
        # of thousands of them in its cache: untracked by the cyclic GC, whose full collections
        # would otherwise traverse them all (a third of a rebuild, ADR 0232).
        if self.row.__struct_config__.gc:
            raise TypeError(f"{self.row.__name__} must be declared with gc=False")


@dataclass(frozen=True)
class Fold(Generic[E, R]):
    """How events of ``event`` change rows of ``target``."""

    event: type[E]
    target: ReadModelTable[R]
    key: Callable[[E, EventInfo], Hashable]
    apply: Callable[[R | None, E, EventInfo], R | None]


@dataclass(frozen=True)
class KeyDigest:
    """Keep ``target`` (one ``DigestRow`` per execution) equal to the count and digest of the keys of
    ``source`` rows: the engine adds a key's term when it creates a source row and removes it when it
    deletes one, in the same write (ADR 0132).  The first three key columns of ``source`` are the
    execution; ``term`` maps the whole primary key to its digest term."""

    source: str
    target: ReadModelTable[Any]
    term: Callable[[tuple[Any, ...]], str]


@dataclass(frozen=True)
class GroupCount:
    """Keep ``target`` equal to ``SELECT <group>, count(*) FROM source GROUP BY <group>``: the engine
    moves one unit from the group of a source row's old value to the group of its new value whenever
    a fold changes it, in the same write, and deletes a group's row when its count reaches zero (so
    a rebuild, the runner and the migration that first fills it all leave the same rows, ADR 0345).
    ``group`` maps a source row to its group, the leading key columns of ``target``; the target's
    row is built as ``target.row(*group, count)`` (its last column is the count)."""

    source: str
    target: ReadModelTable[Any]
    group: Callable[[Any], tuple[Any, ...]]

    def count_of(self, row: Any) -> int:
        return int(msgspec.structs.astuple(row)[-1])


@dataclass(frozen=True)
class Projection:
    """A named group of read-model tables folded together (rebuilt, healed and reported as one).

    ``creates_rows_on`` lists the event types that always leave at least one row behind: if the log
    holds such an event at or below the watermark while the tables are empty, rows have been lost and
    the projection is rebuilt at start-up (self-healing).
    """

    name: str
    tables: tuple[ReadModelTable[Any], ...]
    folds: tuple[Fold[Any, Any], ...]
    creates_rows_on: frozenset[str] = field(default_factory=frozenset)
    key_digests: tuple[KeyDigest, ...] = ()
    group_counts: tuple[GroupCount, ...] = ()

    @property
    def event_types(self) -> frozenset[str]:
        return frozenset(f.event.event_type for f in self.folds)
