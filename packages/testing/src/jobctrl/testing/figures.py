"""Reliability figures: a test records named measurements with their goal; the terminal summary
prints them as one table (issue #17's "figures print in the test output").

``figures`` is a fixture: ``figures.record("lost events (kill -9 x20)", 0, goal="0", met=True)``.
A figure whose goal is not met is printed as MISSED; the test that recorded it should also fail by
its own assertion (the table is a report, not the judge).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

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
