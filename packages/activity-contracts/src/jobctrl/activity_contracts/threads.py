"""Heartbeating while an activity works, so a short heartbeat timeout detects a dead worker quickly
without ever timing out a live, slow call (a first Chromium launch, a model answering in minutes, a
polite crawl of a large board).

* :func:`run_heartbeating`: an async activity runs thread-bound work on an executor and beats while
  it waits.

Both beat every :func:`beat_interval` of the activity's heartbeat timeout.
* :func:`heartbeating`: a sync activity (on the worker's thread pool) wraps its work in this block; a
  side thread, carrying the activity's context, beats until the block ends (ADR 0310).

:func:`heartbeating` sends the seconds worked so far as the beat's details (shown on the pending
activity); an activity that reports progress through its details (enrichment) beats itself and must
not use it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import TypeVar

from temporalio import activity

T = TypeVar("T")
BEAT_S = 1.0
log = logging.getLogger(__name__)


def beat_interval(heartbeat_timeout_s: float | None) -> float:
    """A beat often enough that two may be lost inside one timeout, and at most every ``BEAT_S``
    (the SDK coalesces beats, so a frequent one costs only a wake-up of the worker's loop)."""
    return BEAT_S if heartbeat_timeout_s is None else min(BEAT_S, heartbeat_timeout_s / 3)


def _timeout_s() -> float | None:
    if not activity.in_activity():
        return None
    timeout = activity.info().heartbeat_timeout
    return None if timeout is None else timeout.total_seconds()


async def run_heartbeating(executor: Executor, fn: Callable[[], T]) -> T:
    interval = beat_interval(_timeout_s())
    future = asyncio.get_running_loop().run_in_executor(executor, fn)
    while True:
        done, _ = await asyncio.wait({future}, timeout=interval)
        if done:
            return future.result()
        activity.heartbeat()


@contextmanager
def heartbeating() -> Iterator[None]:
    """Beat from a side thread while the block runs on a sync activity's thread.  Outside an
    activity, or for an activity started without a heartbeat timeout, it does nothing."""
    timeout_s = _timeout_s()
    if timeout_s is None:
        yield
        return
    info, interval = activity.info(), beat_interval(timeout_s)
    done = threading.Event()

    started = time.monotonic()

    def beat() -> None:
        while not done.wait(interval):
            try:  # the seconds worked so far: what the server shows on the pending activity
                activity.heartbeat(round(time.monotonic() - started, 1))
            except Exception:  # a busy loop or a finished activity: the next beat tries again
                log.debug("heartbeat of %s failed", info.activity_type, exc_info=True)

    # The activity's context (its heartbeat function) lives in a context variable of this thread.
    side = threading.Thread(
        target=contextvars.copy_context().run, args=(beat,), name=f"beat-{info.activity_type}", daemon=True
    )
    side.start()
    try:
        yield
    finally:
        done.set()
        side.join()
