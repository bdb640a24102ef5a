"""A worker process freezes its start-up heap once its Temporal worker is built (ADR 0426): its full
collections then walk only what it made since, and a projection runner step in the same process
(``frozen_heap``, ADR 0232) leaves that freeze in place.

The freeze is the process's own, so the worker runs in a child interpreter: the embedded
``local_runtime`` (``jobctrl demo`` and ``run``; ``jobctrl worker`` builds the same ``WorkerRuntime``)
with the real activities on the session's dev server, then one real runner step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

pytestmark = [pytest.mark.temporal, pytest.mark.integration]

_WORKER = """
    import asyncio, gc, json, sys, time

    from jobctrl.domain_types import registry
    from jobctrl.kernel.heap import startup_frozen
    from jobctrl.kernel.store import EventStore, open_database
    from jobctrl.projections import ProjectionRunner
    from jobctrl.runtime.composition.root import Composition
    from jobctrl.runtime.embedded import local_runtime
    from jobctrl.runtime.settings import FixedSettings, RuntimeSettings

    address, db_path, task_queue, freeze = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"


    def frozen(thing):
        return not any(o is thing for o in gc.get_objects())


    def full_collection_ms():
        started = time.process_time()
        gc.collect()
        return (time.process_time() - started) * 1000


    async def main():
        db = open_database(f"sqlite:///{db_path}")
        store = EventStore(db, registry())
        store.create_schema()
        comp = Composition.build(db, store, sources=lambda: [])
        kept = [object()]  # alive from start-up on
        walked_before = len(gc.get_objects())
        ms_before = full_collection_ms()
        async with local_runtime(
            db=db, store=store, settings=FixedSettings(RuntimeSettings()), spend=comp.spend,
            overrides=comp.activities(), targets=comp.facts, address=address, task_queue=task_queue,
            freeze_startup=freeze,
        ):  # the worker is built, polls and wrote its first heartbeat
            out = {
                "startup": startup_frozen(), "walked_before": walked_before, "ms_before": ms_before,
                "walked_after": len(gc.get_objects()), "ms_after": full_collection_ms(),
                "frozen": gc.get_freeze_count(), "kept_frozen": frozen(kept),
            }
            runner = ProjectionRunner(db, registry())
            await asyncio.to_thread(runner.step)  # one transaction, under frozen_heap (ADR 0232)
            out.update(kept_frozen_after_step=frozen(kept), frozen_after_step=gc.get_freeze_count())
        comp.close()
        db.dispose()
        print(json.dumps(out))


    asyncio.run(main())
"""


def _worker(temporal_address: str, tmp_path: Path, freeze: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env["JOBCTRL_HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [
            sys.executable, "-c", textwrap.dedent(_WORKER), temporal_address, str(tmp_path / f"w{freeze}.db"),
            f"freeze-{uuid.uuid4().hex[:8]}", "1" if freeze else "0",
        ],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_worker_freezes_its_startup_heap_and_a_runner_step_leaves_it_frozen(
    temporal_address: str, tmp_path: Path
) -> None:
    out = _worker(temporal_address, tmp_path, freeze=True)
    walked_before, walked_after, frozen = out["walked_before"], out["walked_after"], out["frozen"]
    assert isinstance(walked_before, int) and isinstance(walked_after, int) and isinstance(frozen, int)
    assert out["startup"] is True and out["kept_frozen"] is True
    # The imports and the worker: ~300,000 objects that a full collection no longer walks.
    assert frozen > 100_000 and walked_after < walked_before // 4
    assert out["kept_frozen_after_step"] is True  # the runner's step did not thaw it
    after_step = out["frozen_after_step"]
    assert isinstance(after_step, int) and after_step > frozen * 0.9


def test_a_worker_built_by_a_library_caller_leaves_the_heap_alone(
    temporal_address: str, tmp_path: Path
) -> None:
    out = _worker(temporal_address, tmp_path, freeze=False)
    assert out["startup"] is False and out["frozen"] == 0 and out["kept_frozen"] is False
