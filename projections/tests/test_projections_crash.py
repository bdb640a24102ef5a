"""SIGKILL the runner at random points; after restart the tables equal a clean rebuild."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.digest import table_digests
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.status import read_status
from jobctrl.testing.synthetic import LogWriter, generate

pytestmark = pytest.mark.both_databases
KILLS = 4

CHILD = """
import sys
from jobctrl.domain_types import registry
from jobctrl.kernel.store import open_database
from jobctrl.projections.runner import ProjectionRunner
runner = ProjectionRunner(
    open_database(sys.argv[1]), registry(), batch_size=int(sys.argv[2]), commit_events=int(sys.argv[3])
)
runner.prepare()
print("ready", flush=True)
while runner.step():
    print("batch", flush=True)
print("done", flush=True)
"""


def test_a_runner_killed_mid_fold_resumes_without_loss_or_double_counting(
    database: Database, db_url: str, reg: EventRegistry, store: EventStore
) -> None:
    rng = random.Random(17)
    log = LogWriter(generate(400, seed=8), corrupt_every=173)
    killed = 0
    for _ in range(KILLS):
        log.write(database, limit=1200)
        batch = rng.randint(3, 9)  # a transaction of one to three batches (ADR 0350)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, db_url, str(batch), str(batch * rng.randint(1, 3))],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            for _ in range(rng.randint(1, 60)):  # let it commit a random number of batches …
                child.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.01))  # … and land somewhere inside the next one
            if child.poll() is None:
                os.kill(child.pid, signal.SIGKILL)
                killed += 1
        finally:
            child.wait(timeout=60)
            if child.stdout is not None:
                child.stdout.close()
    assert killed == KILLS  # every kill landed while the child was folding
    status = read_status(database)
    assert status.lag > 0  # the last victim left work behind
    ProjectionRunner(database, reg, batch_size=50).catch_up()
    assert read_status(database).lag == 0
    after_crashes = table_digests(database)
    rebuild(database, reg)
    assert table_digests(database) == after_crashes
