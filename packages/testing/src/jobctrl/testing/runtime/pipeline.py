"""The whole pipeline on a composed worker: ``jobctrl run``'s own ``run_pipeline`` over a
:class:`Composition`, on a local worker of its own task queue on the session's Temporal server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from jobctrl.discovery import SourceConfig
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import LocalRuntime, local_runtime
from jobctrl.runtime.pipeline import PipelineReport, run_pipeline
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings


@dataclass
class ComposedWorker:
    rt: LocalRuntime
    comp: Composition

    async def pipeline(self, sources: Sequence[SourceConfig], *, top_n: int) -> PipelineReport:
        """One ``run_pipeline`` with the sample profile over ``sources``."""
        return await run_pipeline(
            self.rt.client, self.comp, task_queue=self.rt.worker.task_queue, profile=SAMPLE_PROFILE,
            sources=sources, top_n=top_n,
        )  # fmt: skip


@asynccontextmanager
async def composed_worker(comp: Composition, address: str) -> AsyncIterator[ComposedWorker]:
    """A worker of ``comp``'s activities (4 slots) on ``address``; ``comp`` is closed afterwards."""
    try:
        async with local_runtime(
            db=comp.db, store=comp.store, settings=FixedSettings(RuntimeSettings(worker_activity_slots=4)),
            spend=comp.spend, overrides=comp.activities(), address=address,
            task_queue=f"test-{uuid.uuid4().hex[:10]}", targets=comp.facts,
        ) as rt:  # fmt: skip
            yield ComposedWorker(rt, comp)
    finally:
        comp.close()
