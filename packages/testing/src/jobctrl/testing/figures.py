"""Reliability figures: a test records named measurements with their goal; the terminal summary
prints them as one table (issue #17's "figures print in the test output").

``figures`` is a fixture: ``figures.record("lost events (kill -9 x20)", 0, goal="0", met=True)``.
A figure whose goal is not met is printed as MISSED; the test that recorded it should also fail by
its own assertion (the table is a report, not the judge).

Under pytest-xdist the figures are recorded in the worker processes while the table is printed by
the controller: each worker hands its figures over in ``workeroutput`` when it finishes, and the
controller gathers them as each worker goes down (``pytest_testnodedown``), so ``-n 2`` prints the
same table as a run in one process.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass
from typing import Any

import pytest

_KEY = pytest.StashKey["Figures"]()


@dataclass(frozen=True)
class Figure:
    name: str
    value: str
    goal: str
    met: bool
    test: str


class Figures:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.items: list[Figure] = []
        self._test = ""

    def record(self, name: str, value: object, *, goal: str, met: bool) -> None:
        with self._lock:
            self.items.append(Figure(name, str(value), goal, met, self._test))


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_KEY] = Figures()


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Figures:
    found = request.config.stash[_KEY]
    found._test = request.node.nodeid
    return found


_OUTPUT = "jobctrl_figures"


def pytest_sessionfinish(session: pytest.Session) -> None:
    output = getattr(session.config, "workeroutput", None)  # set only in an xdist worker
    if output is not None and _KEY in session.config.stash:
        output[_OUTPUT] = json.dumps([asdict(f) for f in session.config.stash[_KEY].items])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist's controller: a worker finished; keep the figures it recorded."""
    shipped = getattr(node, "workeroutput", {}).get(_OUTPUT)
    if shipped:
        node.config.stash[_KEY].items.extend(Figure(**f) for f in json.loads(shipped))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    items = config.stash[_KEY].items if _KEY in config.stash else []
    if not items:
        return
    terminalreporter.section("reliability figures")
    width = max(len(f.name) for f in items)
    value_width = max(len(f.value) for f in items)
    goal_width = max(len(f.goal) for f in items)
    for f in items:
        verdict = "met" if f.met else "MISSED"
        terminalreporter.write_line(
            f"{f.name:<{width}}  {f.value:>{value_width}}  goal {f.goal:<{goal_width}}  {verdict}"
        )
