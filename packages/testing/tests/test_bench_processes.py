"""``python -m jobctrl.testing.bench`` runs each suite in a process of its own (ADR 0425): one suite's
heap never stays alive under the next one's measurements.  Two small suites written here stand in
for the real ones (which take minutes); the harness that runs them is the real one."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from jobctrl.testing.bench.__main__ import main

_GROWS = """
    import gc, os

    KEPT = []

    def run(results):
        results["grows.pid"] = os.getpid()
        KEPT.extend([] for _ in range(200_000))  # this process's heap grows and stays grown
        gc.collect()
        results["grows.tracked"] = len(gc.get_objects())
        results["grows.ratio_vs_itself"] = 1.0
"""

_AFTER = """
    import gc, os

    def run(results):
        results["after.pid"] = os.getpid()
        results["after.tracked"] = len(gc.get_objects())
"""

# A suite whose name holds "ratio" ("operations"), with figures that are text.
_OPERATIONS = """
    import gc

    def run(results):
        gc.collect()  # one full collection: its ``gc_full_ms`` figure is non-empty text
        results["operations.note"] = "text, not a number"
        results["operations.ratio_vs_half"] = 0.5
"""

_FAILS = """
    def run(results):
        raise RuntimeError("this suite fails")
"""


@pytest.fixture
def suites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    package = tmp_path / "lib" / "toysuites"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name, source in {
        "grows": _GROWS,
        "after": _AFTER,
        "fails": _FAILS,
        "operations": _OPERATIONS,
    }.items():
        (package / f"{name}.py").write_text(textwrap.dedent(source))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path / "lib"), path])))
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))  # importable here too: the suites could run in-process
    monkeypatch.chdir(tmp_path)
    return "toysuites"


def test_each_suite_runs_in_a_process_of_its_own_and_the_figures_are_merged(
    suites: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".bench").mkdir()
    (tmp_path / ".bench" / "results.json").write_text(json.dumps({"earlier.figure": 7}))

    assert main(["grows", "after"], package=suites) == 0

    results = json.loads((tmp_path / ".bench" / "results.json").read_text())
    pids = {results["grows.pid"], results["after.pid"], os.getpid()}
    assert len(pids) == 3  # two children, neither of them this process
    # The second suite's process never held the first one's 200,000 lists.
    assert results["after.tracked"] < results["grows.tracked"] - 150_000
    assert results["earlier.figure"] == 7  # an earlier run's figures are kept, as before
    assert {"grows.load_average_start", "after.load_average_start"} <= set(results)
    # Each suite's own full collections are counted (the one ``grows`` asked for, at least).
    assert results["grows.gc_full_collections"] >= 1
    assert results["grows.gc_full_longest_ms"] > 0
    assert results["after.gc_full_collections"] >= 0
    assert len(results["grows.gc_full_ms"].split()) == results["grows.gc_full_collections"]
    printed = capfd.readouterr().out
    assert "bench grows" in printed and "bench after" in printed
    assert "grows.ratio_vs_itself = 1.000" in printed  # each suite's ratios, as it ends
    assert "after.tracked" in printed  # the merged table


def test_a_failing_suite_stops_the_run_with_its_status_and_writes_nothing(
    suites: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["fails", "after"], package=suites) == 1

    assert not (tmp_path / ".bench").exists()
    printed = capfd.readouterr()
    assert "bench fails failed (exit status 1)" in printed.out
    assert "this suite fails" in printed.err
    assert "bench after" not in printed.out


def test_a_suite_named_with_ratio_in_it_prints_only_its_numeric_ratios(
    suites: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # "operations" holds "ratio": its text figures (a note, its collections' times) are no ratios.
    assert main(["operations"], package=suites) == 0

    results = json.loads((tmp_path / ".bench" / "results.json").read_text())
    assert results["operations.gc_full_ms"] != "" and results["operations.note"] == "text, not a number"
    printed = capfd.readouterr().out
    assert "operations.ratio_vs_half = 0.500" in printed
    assert "operations.note = " not in printed and "operations.gc_full_ms = " not in printed
