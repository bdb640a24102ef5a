"""The whole pipeline on a composed worker: ``jobctrl run``'s own ``run_pipeline`` over a
:class:`Composition`, on a local worker of its own task queue on the session's Temporal server; and
:func:`one_posting_world`, the one-posting world whose model is a local OpenAI-compatible server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from jobctrl.discovery import SourceConfig
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS, SamplePosting
from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm.pricing import ModelPrice
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.config import LlmConfig
from jobctrl.runtime.embedded import LocalRuntime, local_runtime
from jobctrl.runtime.pipeline import PipelineReport, run_pipeline
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.testing.llm_server import FakeOpenAI, fake_openai_server


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


@dataclass
class OnePosting:
    """One greenhouse posting on the sample board, the local model server, and the composition whose
    model is that server (``server.responder`` answers; set it before the worker runs)."""

    posting: SamplePosting
    store: EventStore
    server: FakeOpenAI
    board: SampleJobBoard
    sources: list[SourceConfig]
    comp: Composition


@contextmanager
def one_posting_world(
    database: Database,
    artifacts_root: Path,
    *,
    model: str,
    api_key: str,
    prices: dict[str, ModelPrice] | None = None,
) -> Iterator[OnePosting]:
    """The servers stop when the block ends; the composition is closed by ``composed_worker``."""
    posting = next(p for p in SAMPLE_POSTINGS if p.format == "greenhouse")
    store = EventStore(database, registry())
    store.create_schema()
    with fake_openai_server() as server, SampleJobBoard(postings=[posting]) as board:
        llm = LlmConfig(
            provider="openai-compatible", base_url=server.base_url, model=model, api_key=SecretStr(api_key),
            prices=prices or {},
        )  # fmt: skip
        sources = board.sources()
        comp = Composition.build(
            database, store, sources=lambda: sources, artifacts_root=artifacts_root, min_score=1,
            llm_settings=llm.settings(),
        )  # fmt: skip
        yield OnePosting(posting, store, server, board, sources, comp)
