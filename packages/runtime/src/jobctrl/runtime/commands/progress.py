"""The pipeline's progress bars on the terminal, one per phase, for ``jobctrl demo`` and ``jobctrl run``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


@contextmanager
def phase_bars(
    phases: Mapping[str, str], console: Console, *, quiet: bool
) -> Iterator[Callable[[str, int, int], None]]:
    """A ``progress(phase, done, total)`` callback for ``run_pipeline``: a phase's bar, labelled
    ``phases[phase]``, appears when the phase first reports; a phase not in ``phases`` shows none."""
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, disable=quiet,
    ) as bars:  # fmt: skip
        tasks: dict[str, TaskID] = {}

        def tick(phase: str, done: int, total: int) -> None:
            if phase not in phases:
                return
            if phase not in tasks:
                tasks[phase] = bars.add_task(phases[phase], total=max(total, 1))
            bars.update(tasks[phase], completed=done, total=max(total, 1))

        yield tick
