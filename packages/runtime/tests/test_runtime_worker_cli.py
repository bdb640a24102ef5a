"""``jobctrl worker`` with no TEMPORAL_ADDRESS: starts the embedded dev server, reconciles, writes a
heartbeat, freezes its start-up heap (ADR 0426), and on SIGTERM stops the worker and the one server
process it started."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from jobctrl.testing.runtime.server import shared_worker_pycache, worker_bytecode_env

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


def _processes_mentioning(needle: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if needle in cmdline:
                found.append(int(entry.name))
    return found


def test_worker_command_runs_on_an_embedded_server_and_stops_only_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env.update(JOBCTRL_HOME=str(home), JOBCTRL_WORKER_ACTIVITY_SLOTS="3")
    env.update(worker_bytecode_env(shared_worker_pycache()))
    jobctrl = Path(sys.executable).parent / "jobctrl"
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(jobctrl), "worker"], env=env, stdout=out, stderr=subprocess.STDOUT)
    engine = create_engine(f"sqlite:///{home / 'jobctrl.db'}")
    try:
        row = None
        deadline = time.monotonic() + 90
        while row is None and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            if (home / "jobctrl.db").exists() and inspect(engine).has_table("worker_runtime_heartbeats"):
                with engine.connect() as conn:
                    row = conn.execute(text("SELECT * FROM worker_runtime_heartbeats")).mappings().first()
            time.sleep(0.3)
        assert row is not None, "no heartbeat within 90 s"
        assert row["configured_slots"] == 3 and row["task_queue"] == "jobctrl-default"
        assert row["pid"] == proc.pid
        server_db = str(home / "temporal" / "dev-server.db")
        assert len(_processes_mentioning(server_db)) == 1  # the embedded server it started
        # The worker's own process froze its start-up heap once the worker was built (ADR 0426).
        ready = None
        while ready is None and time.monotonic() < deadline + 30:
            ready = re.search(r"worker ready; ([\d,]+) start-up objects frozen", log.read_text())
            time.sleep(0.1)
        assert ready is not None, log.read_text()
        assert int(ready.group(1).replace(",", "")) > 100_000
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        engine.dispose()
    assert _processes_mentioning(str(home / "temporal" / "dev-server.db")) == []
    assert (home / "temporal" / "dev-server.db").exists()
