"""A row's first fold starts from ``ReadModelTable.blank``: the values it names, the Struct's default
where it has one, NULL in every other nullable column, and a NOT NULL column left out is refused."""

from __future__ import annotations

import pytest

from jobctrl.projections.read_models.apply_runs import APPLY_RUNS
from jobctrl.projections.read_models.outreach import THREADS

pytestmark = pytest.mark.domain


def test_blank_fills_every_unnamed_nullable_column_with_null() -> None:
    row = APPLY_RUNS.blank(
        tenant_id="t",
        run_id="r",
        status="running",
        email_candidate=False,
        run_events=0,
        last_event_position=7,
    )
    assert (row.tenant_id, row.run_id, row.status, row.run_events, row.last_event_position) == (
        "t",
        "r",
        "running",
        0,
        7,
    )
    assert row.job_id is None and row.started_at is None and row.updated_at is None


def test_blank_keeps_the_struct_default_of_a_column_that_has_one() -> None:
    row = THREADS.blank(tenant_id="t", thread_id="th", sends=0, last_event_position=1)
    assert row.replies == 0 and row.last_reply_at is None


def test_blank_refuses_a_row_without_a_not_null_column() -> None:
    with pytest.raises(TypeError, match="run_events"):
        APPLY_RUNS.blank(
            tenant_id="t", run_id="r", status="running", email_candidate=False, last_event_position=1
        )
