"""The spend ledger under concurrent writers, on both databases."""

from __future__ import annotations

import threading

import pytest

from jobctrl.kernel.store import Database, open_database
from jobctrl.llm import LlmUsage
from jobctrl.orchestration.spend.ledger import SpendLedger
from jobctrl.orchestration.tables import create_orchestration_tables

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
