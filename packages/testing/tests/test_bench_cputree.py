"""The bench's CPU by process group (ADR 0430): a child's CPU is counted in its group, this process's
own in ``bench``, and a delta never goes below zero."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from jobctrl.testing.bench.cputree import GROUPS, CpuTree, _group, delta

# Burns CPU, prints its own CPU seconds, then waits on stdin so it is alive when sampled.
_CHILD = (
    "import sys, time\n"
    "x = 0\n"
    "while time.process_time() < 0.3:\n"
    "    x += 1\n"
    "print(time.process_time(), flush=True)\n"
    "sys.stdin.read()\n"
)


def test_a_busy_child_is_counted_in_its_group_and_this_process_in_bench() -> None:
    tree = CpuTree()
    before = tree.sample()
    with subprocess.Popen(
        [sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        burned = float(child.stdout.readline())  # the child has done its work and is still alive
        spent = time.process_time()
        while time.process_time() - spent < 0.2:  # this process's own work
            pass
        after = tree.sample()
        child.stdin.close()
        child.wait(timeout=30)
    used = delta(before, after)
    assert set(used) == set(GROUPS)
    # The child's comm is python's: "other".  Clock ticks are 10 ms; allow a few.
    assert used["other"] >= burned - 0.05, (used, burned)
    assert used["bench"] >= 0.15, used
    assert used["server"] == used["chromium"] == used["driver"] == 0.0, used


def test_processes_are_grouped_by_their_command_name() -> None:
    assert _group("temporal") == "server"
    assert _group("chromium") == "chromium" and _group("chrome_crashpad") == "chromium"
    assert _group("node") == "driver" and _group("node-MainThread") == "driver"
    assert _group("python3") == "other"


def test_a_delta_never_goes_below_zero() -> None:
    # A process that exited between the samples took its seconds out of the tree.
    assert delta({"chromium": 2.0}, {"chromium": 0.5})["chromium"] == 0.0
    assert delta({"server": 1.0}, {"server": 1.25})["server"] == pytest.approx(0.25)
