"""A worker whose context activities are not all wired is refused at build, naming what is missing."""

from __future__ import annotations

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.adapters.spend_ledger import ledger_with_settings
from jobctrl.runtime.activities import CONTEXT_ACTIVITIES, ActivityDeps, activity_name, build_activities
from jobctrl.testing.runtime.fakes import FakeContexts


def _deps(database: Database) -> ActivityDeps:
    return ActivityDeps(
        store=EventStore(database, registry()), spend=ledger_with_settings(database), client=None
    )


def test_every_context_activity_wired_builds_every_name(database: Database) -> None:
    names = {activity_name(fn) for fn in build_activities(_deps(database), FakeContexts().activities())}
    assert set(CONTEXT_ACTIVITIES) <= names and "record_workflow_started" in names


def test_a_missing_context_activity_is_a_configuration_error(database: Database) -> None:
    partial = [fn for fn in FakeContexts().activities() if activity_name(fn) not in {"apply", "score_job"}]
    with pytest.raises(ConfigurationError, match="score_job, apply"):
        build_activities(_deps(database), partial)
