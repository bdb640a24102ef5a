"""Running thread-bound work from an async activity while heartbeating, so a short heartbeat timeout
detects a dead worker quickly without ever timing out a live, slow call (a first Chromium launch)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

from temporalio import activity

T = TypeVar("T")
BEAT_S = 1.0


async def run_heartbeating(executor: Executor, fn: Callable[[], T]) -> T:
    future = asyncio.get_running_loop().run_in_executor(executor, fn)
    while True:
        done, _ = await asyncio.wait({future}, timeout=BEAT_S)
        if done:
            return future.result()
        activity.heartbeat()
