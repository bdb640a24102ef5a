"""Orchestration's own (non-event) tables: the spend ledger and the settings document.

They live beside ``job_events`` in the same database so a write can share its transaction.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, Integer, MetaData, String, Table, Text

from jobctrl.kernel.store import Database

metadata = MetaData()

# One row per UTC day; every LLM call adds to it with an UPSERT (never a read-modify-write).
llm_spend = Table(
    "llm_spend",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("cost_usd", Float, nullable=False),
    Column("input_tokens", BigInteger, nullable=False),
    Column("output_tokens", BigInteger, nullable=False),
    Column("calls", Integer, nullable=False),
    Column("updated_at", String(40), nullable=False),
)

# One validated JSON document per name (ADR 0026); today only "orchestration".
jobctrl_settings = Table(
    "jobctrl_settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("document", Text, nullable=False),
    Column("updated_at", String(40), nullable=False),
)


def create_orchestration_tables(db: Database) -> None:
    db.create_tables(metadata)
