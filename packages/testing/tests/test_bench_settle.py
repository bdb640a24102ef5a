"""Between suites the bench parent waits for the previous suite's orphaned processes (ADR 0446): an
orphan is re-parented to the subreaper, the wait returns once it has exited and been reaped, and a
process that outlives the bound is reported, not waited for forever."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

# A parent of its own (the subreaper setting is per process): it becomes a subreaper, starts a shell
# that leaves one ``sleep SECONDS`` behind and exits, then waits for its descendants for BOUND seconds
# and prints the orphan's pid, what the wait found, and whether the orphan's /proc entry remains.
_PARENT = """
import json, os, subprocess, sys
from jobctrl.testing.bench.settle import become_subreaper, live_descendants, wait_for_descendants
seconds, bound = sys.argv[1], float(sys.argv[2])
assert become_subreaper()
# A child alive before the suite (argument 3 given): neither waited for nor reported.
before = subprocess.Popen(["sleep", "30"]) if len(sys.argv) > 3 else None
ignore = frozenset([before.pid]) if before else frozenset()
leave = f"sleep {seconds} >/dev/null 2>&1 & echo $!"
shell = subprocess.run(["sh", "-c", leave], capture_output=True, text=True, check=True)
orphan = int(shell.stdout)
adopted = [pid for pid, _name in live_descendants()]
settled = wait_for_descendants(bound_s=bound, poll_s=0.01, ignore=ignore)
left = [pid for pid, _ in settled.left]
exists, before_alive = os.path.exists(f"/proc/{orphan}"), before is not None and before.poll() is None
print(json.dumps({"orphan": orphan, "adopted": adopted, "left": left, "exists": exists,
                  "before_alive": before_alive}))
if before:
    before.kill()
    before.wait()
"""


def _run(seconds: str, bound: float, *extra: str) -> dict[str, object]:
    command = [sys.executable, "-c", _PARENT, seconds, str(bound), *extra]
    out = subprocess.run(command, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_an_orphaned_process_is_adopted_and_waited_for_until_it_is_gone() -> None:
    got = _run("0.3", 30.0)
    assert got["adopted"] == [got["orphan"]]  # the shell exited: its sleep is the parent's now
    assert got["left"] == [] and got["exists"] is False  # exited and reaped before the wait returned


def test_a_process_alive_before_the_suite_is_not_waited_for() -> None:
    got = _run("0.2", 30.0, "pre")
    assert got["left"] == [] and got["exists"] is False and got["before_alive"] is True


def test_a_process_that_outlives_the_bound_is_reported() -> None:
    got = _run("30", 0.05)
    orphan = got["orphan"]
    assert isinstance(orphan, int)
    try:
        assert got["left"] == [orphan] and got["exists"] is True
    finally:
        os.kill(orphan, signal.SIGTERM)  # the test started it
