"""``jobctrl demo``'s library entry on one source of the sample board, against the shared dev server:
it completes, its summary prints, and the data lands under $JOBCTRL_HOME."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from rich.console import Console

from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.kernel.store import Database
from jobctrl.runtime.commands import demo as demo_command


@pytest.mark.asyncio
async def test_demo_entry_completes_on_a_board_subset_and_summarizes(
    temporal_address: str, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path))
    monkeypatch.setenv("TEMPORAL_ADDRESS", temporal_address)
    tenant = f"t{uuid.uuid4().hex[:8]}"
    with SampleJobBoard() as board:
        outcome = await demo_command.run_demo(
            database, board=board, top_n=1, quiet=True, source_ids=["ashby-hooli"],
            tenant=tenant, task_queue=f"test-{tenant}",
        )  # fmt: skip
        assert board.server.posts == []
    report = outcome.report
    assert report.discover.observed_jobs == 7 and not report.failed
    assert len(report.prepared) + len(report.not_eligible) == 7
    for job_id in report.prepared:
        ids = outcome.comp.facts.pdf_ids(job_id)
        assert ids is not None
        assert Path(tmp_path / "artifacts").joinpath(f"{ids[0]}.pdf").exists()
    assert set(report.dry_runs.values()) <= {"dry_run_completed"} and report.submitted == 0
    monkeypatch.setattr(demo_command, "console", Console(width=400))
    with demo_command.console.capture() as captured:
        demo_command.print_summary(outcome, 1)
    text = captured.get()
    assert "jobs per stage" in text and "LLM spend today" in text and str(tmp_path / "artifacts") in text
