"""Run every benchmark suite, print a table, write ``.bench/results.json``.

Each suite runs in a Python process of its own (ADR 0425): the parent starts
``python -m jobctrl.testing.bench --suite NAME MODULE OUT`` for one suite after another, each child
runs that suite and writes its figures to ``OUT``, and the parent merges them.  In one shared process
the heap that the append and projections suites grew stayed alive for the suites after them, and a
full cyclic collection of it stalled the whole process for seconds (an 8.19 s workflow task in the
pipeline suite that only scheduled the next activity).

Between two suites the parent waits, up to a bound, until every process the previous child started
has exited (ADR 0446, ``settle``), and prints how long it waited.
"""

from __future__ import annotations

import gc
import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from jobctrl.testing.bench.method import load_average
from jobctrl.testing.bench.settle import become_subreaper, live_descendants, wait_for_descendants

# Suites in the order they run; each is ``jobctrl.testing.bench.<name>`` with ``run(results)``.
SUITES: tuple[str, ...] = ("append", "projections", "temporal", "pipeline", "operations", "sse")
PACKAGE = "jobctrl.testing.bench"
#: the first argument of a child's command line
SUITE_FLAG = "--suite"


class FullCollections:
    """Times the cyclic GC's full collections (generation 2): each one stalls the whole process."""

    def __init__(self) -> None:
        self.took_s: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.took_s.append(time.perf_counter() - self._started)


def run_suite(name: str, module_name: str) -> dict[str, Any]:
    """One suite, in this process: its figures, with the load average at its start and its process's
    full collections (``NAME.gc_full_collections``, ``NAME.gc_full_longest_ms``, ``NAME.gc_full_ms``:
    each one's wall milliseconds, in order)."""
    console = Console()
    module = importlib.import_module(module_name)
    started = time.perf_counter()
    load = load_average()
    # The load at a suite's start goes with its figures: absolute rates move with it, ratios less.
    results: dict[str, Any] = {f"{name}.load_average_start": " ".join(f"{x:.2f}" for x in load)}
    console.print(f"[bold]bench {name}[/] … load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    full = FullCollections()
    gc.callbacks.append(full)
    try:
        module.run(results)
    finally:
        gc.callbacks.remove(full)
    results[f"{name}.gc_full_collections"] = len(full.took_s)
    results[f"{name}.gc_full_longest_ms"] = round(max(full.took_s, default=0.0) * 1000, 1)
    results[f"{name}.gc_full_ms"] = " ".join(f"{s * 1000:.0f}" for s in full.took_s)
    for key in sorted(results):
        # A ratio figure by its own name (a suite's name may hold "ratio": "operations"), numbers only.
        value = results[key]
        if "ratio" in key.partition(".")[2] and isinstance(value, int | float):
            console.print(f"  {key} = {value:.3f}")
    console.print(f"  done in {time.perf_counter() - started:.1f}s")
    return results


def _child(argv: list[str]) -> int:
    name, module_name, out = argv
    results = run_suite(name, module_name)
    Path(out).write_text(json.dumps(results))
    return 0


def main(argv: list[str], package: str = PACKAGE, *, settle: bool = False) -> int:
    """Run the ``argv`` suites (default: all of ``SUITES``) of ``package``, each in a child process.

    A suite that fails stops the run with its child's exit status, and nothing is written.
    ``settle`` (the command line's ``make bench``): this process becomes a child subreaper and starts
    each suite only once the processes the previous one started are gone (ADR 0446); left off in a
    process that has children of its own to look after (a test session)."""
    if argv[:1] == [SUITE_FLAG]:
        return _child(argv[1:])
    selected = argv or list(SUITES)
    results: dict[str, Any] = {}
    console = Console()
    if settle:
        become_subreaper()  # a suite's orphaned processes become this process's children (ADR 0446)
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-") as scratch:
        for name in selected:
            out = Path(scratch) / f"{name}.json"
            command = [sys.executable, "-m", PACKAGE, SUITE_FLAG, name, f"{package}.{name}", str(out)]
            before = frozenset(pid for pid, _name in live_descendants()) if settle else frozenset()
            status = subprocess.run(command, check=False).returncode
            if settle:  # the next suite starts once this one's processes are gone, or the bound ran out
                settled = wait_for_descendants(ignore=before)
                left = ", ".join(f"{n} ({pid})" for pid, n in settled.left) or "none"
                console.print(
                    f"  {name}: waited {settled.waited_s:.2f}s for its processes to exit; left: {left}"
                )
            if status != 0:
                console.print(f"[bold red]bench {name} failed (exit status {status})[/]")
                return status
            results.update(json.loads(out.read_text()))
            if settle:
                results[f"{name}.exit_wait_s"] = round(settled.waited_s, 2)
                results[f"{name}.exit_left"] = len(settled.left)
    out_dir = Path(".bench")
    out_dir.mkdir(exist_ok=True)
    path = out_dir / "results.json"
    previous = json.loads(path.read_text()) if path.exists() else {}
    previous.update(results)
    path.write_text(json.dumps(previous, indent=2, sort_keys=True) + "\n")
    table = Table(title="make bench (.bench/results.json)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in sorted(results.items()):
        table.add_row(key, f"{value:,.3f}" if isinstance(value, float) else str(value))
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:], settle=True))
