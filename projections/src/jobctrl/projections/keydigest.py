"""An order-independent, incremental digest of a set of canonical keys (ADR 0132).

The digest of a set is the sum, modulo 2**256, of sha256 of each key's term.  Adding a key adds its
term, so a fold keeps the digest current with one addition per *new* row, in the same transaction as
the row's write, and a reader compares two 64-hex strings instead of re-reading and hashing every key.
The sum does not depend on the order the keys arrived in, so an incremental fold and a full rebuild
give the same value.  Terms are domain-separated: ``m<US>job`` for a member, ``s<US>kind<US>item``
for a pipeline step (the unit separator cannot occur in a bounded key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import msgspec
import sqlalchemy as sa

from jobctrl.projections.schema import execution_key_columns, metadata

_MOD = 1 << 256
EMPTY = "0" * 64
SEP = "\x1f"


def term_value(term: str) -> int:
    return int.from_bytes(hashlib.sha256(term.encode()).digest(), "big")


def shift(digest: str, term: str, sign: int = 1) -> str:
    """``digest`` with ``term`` added (``sign=1``) or removed (``sign=-1``)."""
    return f"{(int(digest, 16) + sign * term_value(term)) % _MOD:064x}"


def combine(*digests: str) -> str:
    """The digest of the union of disjoint key sets (members and steps never share a term)."""
    return f"{sum(int(d, 16) for d in digests) % _MOD:064x}"


def of_terms(terms: Iterable[str]) -> str:
    return f"{sum(term_value(t) for t in terms) % _MOD:064x}"


def member_term(job_id: str) -> str:
    return f"m{SEP}{job_id}"


def step_term(kind: str, item: str) -> str:
    return f"s{SEP}{kind}{SEP}{item}"


class DigestRow(msgspec.Struct, frozen=True, gc=False):
    """One execution's key count and digest (a row of a ``*_digests`` read-model table)."""

    tenant_id: str
    workflow_id: str
    run_id: str
    key_count: int
    key_digest: str


def digest_table(name: str) -> sa.Table:
    """A ``*_digests`` read-model table: one ``DigestRow`` per execution, kept by the engine."""
    return sa.Table(
        name,
        metadata,
        *execution_key_columns(),
        sa.Column("key_count", sa.Integer, nullable=False),
        sa.Column("key_digest", sa.String(64), nullable=False),
    )
