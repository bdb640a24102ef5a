"""The spend ledger under concurrent writers, on both databases."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, open_database
from jobctrl.llm import LlmUsage
from jobctrl.orchestration.adapters.spend_ledger import SpendLedger
from jobctrl.orchestration.adapters.tables import create_orchestration_tables, migrate_llm_spend

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]


def test_concurrent_recorders_never_lose_an_increment(database: Database, db_url: str) -> None:
    create_orchestration_tables(database)
    writers, calls = 4, 15
    errors: list[BaseException] = []

    def work() -> None:
        db = open_database(db_url)
        try:
            ledger = SpendLedger(db, lambda: 25.0)
            for _ in range(calls):
                ledger.record(LlmUsage(model="gpt-4o", input_tokens=1000, output_tokens=100))
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            db.dispose()

    threads = [threading.Thread(target=work) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    status = SpendLedger(database, lambda: 25.0).status()
    assert status.calls == writers * calls
    assert status.spent_usd == pytest.approx(writers * calls * (1000 * 2.5 + 100 * 10.0) / 1_000_000)


def test_negative_spend_is_refused(database: Database) -> None:
    create_orchestration_tables(database)
    ledger = SpendLedger(database, lambda: 25.0)
    with pytest.raises(ValueError):
        ledger.add(-1.0)
    assert ledger.status().calls == 0


def test_each_tenant_has_its_own_row_of_the_day(database: Database) -> None:
    create_orchestration_tables(database)
    ledger = SpendLedger(database, lambda: 25.0)
    ledger.record(LlmUsage(model="gpt-4o", input_tokens=1_000_000, output_tokens=0, tenant_id="acme"))
    ledger.add(30.0, tenant_id="local")
    acme, local = ledger.status("acme"), ledger.status("local")
    assert (acme.tenant_id, acme.spent_usd, acme.calls, acme.exceeded) == ("acme", 2.5, 1, False)
    assert (local.spent_usd, local.calls, local.exceeded) == (30.0, 1, True)
    assert ledger.status("nobody").spent_usd == 0.0


def test_a_day_keyed_ledger_is_migrated_to_the_local_tenant(database: Database) -> None:
    """A table made before the tenant column keeps its rows, as the single-tenant ``local``'s."""
    with database.write() as conn:
        conn.execute(
            sa.text(
                "CREATE TABLE llm_spend (day VARCHAR(10) PRIMARY KEY, cost_usd FLOAT NOT NULL, "
                "input_tokens BIGINT NOT NULL, output_tokens BIGINT NOT NULL, calls INTEGER NOT NULL, "
                "updated_at VARCHAR(40) NOT NULL)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO llm_spend VALUES ('2026-03-01', 7.5, 10, 20, 3, 't'), "
                "('2026-03-02', 1, 1, 1, 1, 't')"
            )
        )
    assert migrate_llm_spend(database) is True
    create_orchestration_tables(database)  # idempotent: nothing left to migrate
    assert migrate_llm_spend(database) is False
    ledger = SpendLedger(database, lambda: 5.0, clock=FixedClock(datetime(2026, 3, 1, 12, tzinfo=UTC)))
    status = ledger.status("local")
    assert (status.spent_usd, status.calls, status.exceeded) == (7.5, 3, True)
    assert ledger.status("acme").spent_usd == 0.0
    ledger.add(1.0, tenant_id="acme")  # the new key takes a second tenant's row on the same day
    with database.read() as conn:
        rows = conn.execute(
            sa.text("SELECT tenant_id, day, calls FROM llm_spend ORDER BY day, tenant_id")
        ).all()
    assert [tuple(r) for r in rows] == [
        ("acme", "2026-03-01", 1),
        ("local", "2026-03-01", 3),
        ("local", "2026-03-02", 1),
    ]
