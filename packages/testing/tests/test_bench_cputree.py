"""The bench's CPU by process group (ADR 0430): a descendant's CPU is counted in the group its command
name puts it in, the root's own in ``bench``, and a delta never goes below zero."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from jobctrl.testing.bench.cputree import GROUPS, CpuTree, _group, delta

# A root of its own (so no other descendant of the test process, such as a session's dev server or
# browser, is in the tree): it starts one burner per (command name, CPU seconds) argument pair, prints
# each burner's own CPU seconds once it has burned them, and waits on stdin with every burner alive.
_ROOT = """
import subprocess, sys
burn = (
    "import sys, time\\n"
    "open('/proc/self/comm', 'w').write(sys.argv[1])\\n"
    "while time.process_time() < float(sys.argv[2]):\\n"
    "    pass\\n"
    "print(time.process_time(), flush=True)\\n"
    "sys.stdin.read()\\n"
)
args = sys.argv[1:]
kids = [
    subprocess.Popen([sys.executable, "-c", burn, name, seconds], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
    for name, seconds in zip(args[::2], args[1::2])
]
for kid in kids:
    print(kid.stdout.readline().strip(), flush=True)
sys.stdin.read()
for kid in kids:
    kid.stdin.close()
    kid.wait()
"""


def test_each_descendant_is_counted_in_the_group_of_its_command_name() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", _ROOT, "chromium-test", "0.4", "python-busy", "0.15"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    ) as root:  # fmt: skip
        assert root.stdin is not None and root.stdout is not None
        tree = CpuTree(root.pid)
        burned = [float(root.stdout.readline()) for _ in range(2)]  # both burners are done and alive
        used = tree.sample()
        root.stdin.close()
        root.wait(timeout=30)
    assert set(used) == set(GROUPS)
    # Clock ticks are 10 ms; an interpreter's start-up costs a few ticks more.
    assert used["chromium"] >= burned[0] - 0.05, (used, burned)
    assert burned[1] - 0.05 <= used["other"] < 0.35, (used, burned)  # not the chromium burner's 0.4 s
    assert used["server"] == used["driver"] == 0.0, used
    assert 0.0 < used["bench"] < 0.35, used  # the root's own start-up, not its children's work


def test_this_process_is_counted_in_bench_by_default() -> None:
    tree = CpuTree()
    before = tree.sample()
    spent = time.process_time()
    while time.process_time() - spent < 0.2:
        pass
    assert delta(before, tree.sample())["bench"] >= 0.15


def test_processes_are_grouped_by_their_command_name() -> None:
    assert _group("temporal") == "server"
    assert _group("chromium") == "chromium" and _group("chrome_crashpad") == "chromium"
    assert _group("node") == "driver" and _group("node-MainThread") == "driver"
    assert _group("python3") == "other"


def test_a_delta_never_goes_below_zero() -> None:
    # A process that exited between the samples took its seconds out of the tree.
    assert delta({"chromium": 2.0}, {"chromium": 0.5})["chromium"] == 0.0
    assert delta({"server": 1.0}, {"server": 1.25})["server"] == pytest.approx(0.25)
