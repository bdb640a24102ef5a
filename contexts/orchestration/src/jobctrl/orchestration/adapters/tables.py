"""Orchestration's own (non-event) tables: the spend ledger and the settings document.

They live beside ``job_events`` in the same database so a write can share its transaction.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, Integer, MetaData, String, Table, Text, inspect, text

from jobctrl.kernel.store import Database

metadata = MetaData()

# One row per tenant and UTC day; every LLM call adds to it with an UPSERT (never a
# read-modify-write).  Tables made before the tenant column (day only) are migrated at start-up.
llm_spend = Table(
    "llm_spend",
    metadata,
    Column("tenant_id", String(128), primary_key=True),
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


#: the tenant the day-keyed rows of a pre-tenant ``llm_spend`` belonged to (the single-tenant default)
LEGACY_SPEND_TENANT = "local"
_LEGACY_SPEND = "llm_spend_pre_tenant"


def migrate_llm_spend(db: Database) -> bool:
    """Re-key a day-only ``llm_spend`` by (tenant, day), in one transaction; ``True`` if it migrated.

    Its rows were written by the single-tenant runtime, so they become the ``local`` tenant's.
    """
    if not inspect(db.engine).has_table("llm_spend"):
        return False
    columns = {c["name"] for c in inspect(db.engine).get_columns("llm_spend")}
    if "tenant_id" in columns:
        return False
    with db.write() as conn:
        # Re-checked inside the write transaction: a concurrent start-up may have migrated already.
        if "tenant_id" in {c["name"] for c in inspect(conn).get_columns("llm_spend")}:
            return False
        conn.execute(text(f"ALTER TABLE llm_spend RENAME TO {_LEGACY_SPEND}"))
        if db.is_postgres:  # the renamed table keeps its primary-key index name: free it first
            conn.execute(text(f"ALTER INDEX IF EXISTS llm_spend_pkey RENAME TO {_LEGACY_SPEND}_pkey"))
        metadata.create_all(conn, tables=[llm_spend])
        conn.execute(
            text(
                "INSERT INTO llm_spend (tenant_id, day, cost_usd, input_tokens, output_tokens, calls, "
                f"updated_at) SELECT :tenant, day, cost_usd, input_tokens, output_tokens, calls, updated_at "
                f"FROM {_LEGACY_SPEND}"
            ),
            {"tenant": LEGACY_SPEND_TENANT},
        )
        conn.execute(text(f"DROP TABLE {_LEGACY_SPEND}"))
    return True


def create_orchestration_tables(db: Database) -> None:
    migrate_llm_spend(db)
    db.create_tables(metadata)
