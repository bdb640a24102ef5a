"""Crawl the broad-board family unit by unit, resumably (ADR 0285).

A source's search is split into units (site x keyword x location).  Each unit not yet done in this run
is searched through the ``BroadBoardGateway``; its postings (those the user's search accepts) are
recorded through ``record_observation``, the path every family takes, and then the unit's completion
is recorded on the run's ``broadsearch`` stream.  A unit that fails records nothing and is listed; the
next unit still runs.  A retried or resumed attempt of the same run skips the units done and reuses
their jobs (an attempt that died between a unit's postings and its completion redoes that unit, and
``record_observation``'s derived ids make that a no-op for what was already written).

A source fails (its first unit's error) only when none of its units succeeded in this run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.adapters.broad_board import BroadBoardGateway
from jobctrl.discovery.domain.broad_search import (
    BroadBoardSearch,
    BroadBoardSearchSpec,
    search_id_for,
    search_units,
)
from jobctrl.discovery.domain.source_health import SourceRunOutcome
from jobctrl.discovery.use_cases.run_source_family import (
    FamilyResult,
    FamilyRunOptions,
    SourceFailure,
    _FamilyRecording,
)
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import BROAD_BOARD_POLICY, RequestBudget


def broad_search_of(config: SourceConfig) -> BroadBoardSearchSpec:
    return BroadBoardSearchSpec.parse(
        config.keywords, config.locations, config.results_wanted, config.hours_old
    )


async def run_broad_boards(
    store: EventStore,
    boards: BroadBoardGateway,
    sources: Sequence[SourceConfig],
    *,
    run_id: str,
    clock: Clock,
    **options: Unpack[FamilyRunOptions],
) -> FamilyResult:
    recording = _FamilyRecording(store, run_id, clock, options)
    policy = recording.policy(BROAD_BOARD_POLICY)
    budget = RequestBudget.for_policy(policy)
    recording.catalog()
    runs = AggregateRepository.for_class(store, BroadBoardSearch, clock=clock, tenant_id=recording.tenant_id)
    job_ids = list[str]()
    failures: list[SourceFailure] = []
    outcomes: dict[str, SourceRunOutcome] = {}
    for source in sources:
        state = runs.load(search_id_for(run_id, source.source_id)) or BroadBoardSearch(
            search_id_for(run_id, source.source_id)
        )
        first_error: JobCtrlError | None = None
        succeeded = seen = duplicates = 0
        try:
            units = search_units(tuple(s for s in source.board.split(",") if s), broad_search_of(source))
        except JobCtrlError as exc:
            units, first_error = [], exc
        for unit in units:
            if unit.unit_id in state.done:  # done by an earlier attempt of this run
                succeeded += 1
                seen += state.seen.get(unit.unit_id, 0)
                job_ids.extend(j for j in state.done[unit.unit_id] if j not in job_ids)
                continue
            try:
                found = await boards.search(source, unit, broad_search_of(source), policy, budget)
            except JobCtrlError as exc:
                first_error = first_error or exc
                continue
            kept = recording.accepted(found)
            unit_jobs, unit_duplicates = recording.record(kept)
            duplicates += unit_duplicates
            state.complete(
                source_id=source.source_id, run_id=run_id, unit=unit, postings_seen=len(kept),
                job_ids=unit_jobs, at=isoformat(clock.now()),
            )  # fmt: skip
            runs.save(state, workflow_id=options.get("workflow_id"))
            succeeded += 1
            seen += len(kept)
            job_ids.extend(j for j in unit_jobs if j not in job_ids)
        if succeeded == 0 and first_error is not None:
            failures.append(SourceFailure(source.source_id, first_error.code, first_error.retryable))
            outcomes[source.source_id] = SourceRunOutcome(succeeded=False)
        else:
            outcomes[source.source_id] = SourceRunOutcome(True, seen, duplicates)
    return recording.finish(sources, failures, job_ids, outcomes)
