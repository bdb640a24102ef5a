"""Run every benchmark suite, print a table, write ``.bench/results.json``."""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from jobctrl.testing.bench.method import load_average

# Suites in the order they run; each is ``jobctrl.testing.bench.<name>`` with ``run(results)``.
SUITES: tuple[str, ...] = ("append", "projections", "temporal", "pipeline", "operations", "sse")


def main(argv: list[str]) -> int:
    selected = argv or list(SUITES)
    results: dict[str, Any] = {}
    console = Console()
    for name in selected:
        module = importlib.import_module(f"jobctrl.testing.bench.{name}")
        started = time.perf_counter()
        load = load_average()
        # The load at a suite's start goes with its figures: absolute rates move with it, ratios less.
        results[f"{name}.load_average_start"] = " ".join(f"{x:.2f}" for x in load)
        console.print(f"[bold]bench {name}[/] … load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        before = set(results)
        module.run(results)
        for key in sorted(set(results) - before):
            if "ratio" in key:
                console.print(f"  {key} = {results[key]:.3f}")
        console.print(f"  done in {time.perf_counter() - started:.1f}s")
    out = Path(".bench")
    out.mkdir(exist_ok=True)
    previous = json.loads((out / "results.json").read_text()) if (out / "results.json").exists() else {}
    previous.update(results)
    (out / "results.json").write_text(json.dumps(previous, indent=2, sort_keys=True) + "\n")
    table = Table(title="make bench (.bench/results.json)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in sorted(results.items()):
        table.add_row(key, f"{value:,.3f}" if isinstance(value, float) else str(value))
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
