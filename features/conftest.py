"""The features' fixed clock, shared by every feature folder (the event store on the scenario's
database is the project plugin's ``store``).  A folder's own conftest may override it (discovery's
scenarios run a day later)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.kernel.clock import FixedClock


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
