"""Every registered event type has a fold or a reasoned "not projected" entry (every-event-has-handler)."""

from __future__ import annotations

from jobctrl.kernel.registry import EventRegistry
from jobctrl.projections.coverage import NOT_PROJECTED, OPERATIONS, projected_event_types


def test_every_registered_event_is_projected_or_deliberately_not(reg: EventRegistry) -> None:
    folded = projected_event_types()
    unhandled = [name for name in reg.names if name not in folded and name not in NOT_PROJECTED]
    assert unhandled == [], f"no fold and no reasoned NOT_PROJECTED entry for {unhandled}"


def test_not_projected_entries_are_reasoned_registered_and_not_contradicted(reg: EventRegistry) -> None:
    folded = projected_event_types()
    assert [n for n, why in NOT_PROJECTED.items() if len(why.strip()) < 20] == []
    assert sorted(set(NOT_PROJECTED) - set(reg.names)) == []
    assert sorted(set(NOT_PROJECTED) & folded) == []


def test_folds_only_name_registered_events_and_rows_match_their_tables(reg: EventRegistry) -> None:
    for projection in OPERATIONS:
        for table in projection.tables:
            table.check_shape()
        for fold in projection.folds:
            assert reg.class_for(fold.event.event_type) is fold.event
        assert projection.creates_rows_on <= projection.event_types
