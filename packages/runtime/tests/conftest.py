from __future__ import annotations

import pytest

from jobctrl.kernel.store import Database
from jobctrl.runtime.testing.harness import Harness
from jobctrl.runtime.testing.server import shared_dev_server


@pytest.fixture(scope="session")
def temporal_address(pytestconfig: pytest.Config) -> str:
    return shared_dev_server(pytestconfig)


@pytest.fixture
def harness(temporal_address: str, database: Database) -> Harness:
    return Harness(temporal_address, database)
