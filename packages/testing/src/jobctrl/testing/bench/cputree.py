"""CPU seconds of this process and its descendants, by kind of process, read from ``/proc``.

A suite whose work spans processes (the Temporal dev server, Chromium and its Playwright driver)
cannot read its CPU from ``time.process_time``: ``CpuTree.sample()`` sums utime + stime of this
process (``bench``) and of every live descendant, grouped as ``server`` (the Temporal dev server),
``chromium`` (the browser and its helpers), ``driver`` (Playwright's node driver) and ``other``.

A descendant that exits between two samples takes its last seconds with it, so a group's delta
undercounts a process that ends inside the window; the suites sample around work whose processes
live for the whole run (ADR 0430).  Where ``/proc`` is missing every group reads zero.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

GROUPS: tuple[str, ...] = ("bench", "server", "chromium", "driver", "other")
_PROC = Path("/proc")


def _stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, command name, CPU seconds) of one process, or None once it is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may itself hold spaces or parentheses.
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), name, (int(fields[11]) + int(fields[12])) / ticks


def _group(name: str) -> str:
    if name.startswith("temporal"):
        return "server"
    if name.startswith(("chromium", "chrome")):
        return "chromium"
    if name.startswith("node"):
        return "driver"
    return "other"


class CpuTree:
    """CPU seconds by group for this process and its descendants (see the module doc)."""

    def __init__(self, root: int | None = None) -> None:
        self.root = root if root is not None else os.getpid()

    def sample(self) -> dict[str, float]:
        out: dict[str, float] = dict.fromkeys(GROUPS, 0.0)
        if not _PROC.is_dir():
            return out
        stats: dict[int, tuple[int, str, float]] = {}
        for entry in _PROC.iterdir():
            if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
                stats[int(entry.name)] = stat
        children: dict[int, list[int]] = {}
        for pid, (ppid, _name, _cpu) in stats.items():
            children.setdefault(ppid, []).append(pid)
        if self.root in stats:
            out["bench"] += stats[self.root][2]
        todo = list(children.get(self.root, ()))
        while todo:
            pid = todo.pop()
            _ppid, name, cpu = stats[pid]
            out[_group(name)] += cpu
            todo.extend(children.get(pid, ()))
        return out


def delta(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, float]:
    """``after - before`` per group, never below zero (a process that exited left the tree)."""
    return {g: max(0.0, after.get(g, 0.0) - before.get(g, 0.0)) for g in GROUPS}
