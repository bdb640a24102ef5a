"""Shared fixtures of the discovery features: an event loop kept across steps, local servers, a clock."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest
from pytest_bdd import given

from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.server import LocalHttpServer
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore

T = TypeVar("T")


class LoopRunner:
    """One event loop for the whole scenario, so async clients and caches survive between steps."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()


@pytest.fixture
def runner() -> Iterator[LoopRunner]:
    r = LoopRunner()
    yield r
    r.close()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


@pytest.fixture
def site() -> Iterator[LocalHttpServer]:
    with LocalHttpServer() as server:
        yield server


@pytest.fixture
def board() -> Iterator[SampleJobBoard]:
    with SampleJobBoard() as b:
        yield b


@given("the sample job board is running")
def board_running(board: SampleJobBoard) -> None:
    assert board.base_url.startswith("http://127.0.0.1")


@given("an empty job log")
def empty_log(store: EventStore) -> None:
    assert store.head_position() == 0
