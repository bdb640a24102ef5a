"""The test process's full collections run between tests (ADR 0410): a session of its own, in a
child process, with only that plugin, shows that none starts inside a test however much a test
keeps alive, that they run after every ``FULL_EVERY`` tests and at the end, and that the summary
names the test with the longest collection inside it; and that a collection inside a test walks only
what the test made, and still finds a cycle it leaked (ADR 0427)."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from jobctrl.testing.gc_between_tests import FULL_EVERY, OUT_OF_REACH

INNER = f"""
import gc

SESSION = [[] for _ in range(300_000)]  # alive for the whole session, like its imports and caches

class Leak:
    closed = []

    def __del__(self):
        Leak.closed.append(self.name)

def test_a_collection_inside_a_test_walks_only_what_the_test_made():
    mine = [[] for _ in range(1_000)]
    walked = gc.get_objects()
    assert len(walked) < 100_000  # not the session's 300,000
    assert any(o is mine for o in walked) and not any(o is SESSION for o in walked)

def test_a_command_run_in_the_session_makes_no_startup_freeze():
    from jobctrl.kernel.heap import freeze_startup, startup_frozen

    assert freeze_startup() == 0 and not startup_frozen()

def test_and_none_is_made_when_that_test_ends():
    from jobctrl.kernel.heap import startup_frozen

    assert not startup_frozen()

def test_a_cycle_the_test_leaked_is_still_found_by_its_own_collection():
    leak = Leak()
    leak.name, leak.me = "mine", leak
    del leak
    gc.collect()
    assert Leak.closed == ["mine"]

def test_the_oldest_generation_is_out_of_reach():
    assert gc.get_threshold()[2] == {OUT_OF_REACH}

def test_no_full_collection_starts_inside_a_test():
    before = gc.get_stats()[2]["collections"]
    kept = []
    for _ in range(400_000):  # survivors of the young collections, promoted to the oldest generation
        cycle = []
        cycle.append(cycle)
        kept.append(cycle)
    assert gc.get_stats()[2]["collections"] == before

def test_a_long_collection_of_its_own():
    kept = [[[]] for _ in range(300_000)]
    gc.collect()
    assert kept

{"".join(f"def test_filler_{i}():{chr(10)}    assert True{chr(10)}" for i in range(FULL_EVERY - 6))}
"""


def test_a_session_runs_its_full_collections_between_tests(tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(INNER)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    plugin = "jobctrl.testing.gc_between_tests"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", plugin],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tests = FULL_EVERY + 1
    assert f"{tests} passed" in done.stdout
    # after the FULL_EVERY-th test and after the last one
    assert "cyclic GC: 2 full collections between tests" in done.stdout, done.stdout
    assert "(test_inner.py::test_a_long_collection_of_its_own)" in done.stdout, done.stdout


def test_this_session_keeps_the_oldest_generation_for_between_tests() -> None:
    assert gc.get_threshold()[2] == OUT_OF_REACH
