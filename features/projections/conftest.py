"""Shared fixture of features/projections: past events go into the log; the runner folds them when a
Then step reads a read model.  The shared steps live by concern in the sibling modules imported below:
pytest-bdd registers each step as a fixture in the module that defines it, so importing them here
makes them visible to every scenario in this folder."""

from __future__ import annotations

import pytest

from jobctrl.kernel.store import EventStore

from .steps_rebuilding import *  # noqa: F403 (registers the rebuilding steps)
from .steps_runs import *  # noqa: F403 (registers the pipeline-step and workflow-run steps)
from .steps_views import *  # noqa: F403 (registers the job, apply-run and contact view steps)
from .world import World


@pytest.fixture
def world(store: EventStore) -> World:
    return World(store)
