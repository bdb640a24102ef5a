from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobctrl.kernel.store import Database
from jobctrl.runtime.testing.harness import Harness
from jobctrl.runtime.testing.server import local_dev_server


@pytest.fixture(scope="session")
def temporal_address() -> Iterator[str]:
    with local_dev_server() as address:
        yield address


@pytest.fixture
def harness(temporal_address: str, database: Database) -> Harness:
    return Harness(temporal_address, database)
