"""Render lanes: a few PDF renderers, each created, used and closed on its own thread.

A sync Playwright renderer belongs to the thread that started it, so a lane is one thread plus the
renderer it starts lazily.  ``run`` waits for a free lane (asyncio, no thread held while waiting),
runs the work there while heartbeating the activity, and hands the lane back.  Two lanes let a
worker render two jobs' PDFs at once; one lane is the old single render thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from jobctrl.activity_contracts.threads import run_heartbeating
from jobctrl.materials.ports import PdfRenderer

T = TypeVar("T")


class _Lane:
    def __init__(self, index: int, factory: Callable[[], PdfRenderer]) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"jobctrl-pdf-{index}")
        self.factory = factory
        self.renderer: PdfRenderer | None = None

    def call(self, work: Callable[[PdfRenderer], T]) -> T:  # on the lane's thread
        if self.renderer is None:
            self.renderer = self.factory()
        return work(self.renderer)

    def close(self) -> None:
        def stop() -> None:
            closer = getattr(self.renderer, "close", None)
            if closer is not None:
                closer()
            self.renderer = None

        self.thread.submit(stop).result()
        self.thread.shutdown()


class RenderLanes:
    def __init__(self, factory: Callable[[], PdfRenderer], lanes: int = 1) -> None:
        if lanes < 1:
            raise ValueError(f"render lanes must be at least 1, not {lanes}")
        self._lanes = [_Lane(i, factory) for i in range(lanes)]
        self._free: asyncio.Queue[_Lane] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.busiest = 0  # most lanes in use at once (observability and tests)

    def __len__(self) -> int:
        return len(self._lanes)

    def _queue(self) -> asyncio.Queue[_Lane]:
        loop = asyncio.get_running_loop()
        if self._free is None or self._loop is not loop:
            self._free, self._loop = asyncio.Queue(), loop
            for lane in self._lanes:
                self._free.put_nowait(lane)
        return self._free

    async def run(self, work: Callable[[PdfRenderer], T]) -> T:
        free = self._queue()
        lane = await free.get()
        self.busiest = max(self.busiest, len(self._lanes) - free.qsize())
        try:
            return await run_heartbeating(lane.thread, lambda: lane.call(work))
        finally:
            free.put_nowait(lane)

    def close(self) -> None:
        """Stop every renderer on its own thread, then the threads."""
        for lane in self._lanes:
            lane.close()
