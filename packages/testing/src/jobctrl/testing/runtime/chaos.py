"""The kill -9 chaos row of the reliability suite (issue #17): processes, postings and accounting.

``Supervised`` runs one ``jobctrl`` process (the worker, or the projector ``jobctrl projections run``)
that the test kills with SIGKILL and starts again; a ``Zygote`` forks each from an interpreter that
imported the command line once, so a restart costs a fork, not the imports.
``chaos_postings(run)`` gives each run its own employer board of a few postings (its own employer,
so no content dedupe joins two runs' jobs).
``Ledger`` counts each chaos job's events by type against an undisturbed control job's, each run's
own facts against the control run's, and each workflow's start and end: a missing event is lost, an
extra one duplicated.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS, SamplePosting
from jobctrl.kernel.events import StoredEvent

#: The postings each run discovers: the first few of one lever board, re-homed per run.
POSTINGS_PER_RUN = 2
_TEMPLATE: tuple[SamplePosting, ...] = tuple(p for p in SAMPLE_POSTINGS if p.board == "initech")[
    :POSTINGS_PER_RUN
]

#: Attempt-level records: a killed attempt that is retried starts (or fails) its stage once more, by
#: design, and a retry that finds the row still running under its own killed attempt settles it
#: (failed ``OWNER_RECONCILED_UNCOMMITTED``, then reset) before starting it (ADR 0307), so these are
#: left out of the comparison; every other event type of a job is compared.
ATTEMPTS = frozenset({"StageStarted", "StageFailed", "StageReset"})


def chaos_postings(run: int) -> list[SamplePosting]:
    """Run ``run``'s postings: board ``chaos{run}``, employer ``Initech Chaos {run}``, own native ids."""
    out = []
    for i, p in enumerate(_TEMPLATE):
        employer = f"Initech Chaos {run}"
        out.append(
            replace(
                p,
                board=f"chaos{run}",
                employer=employer,
                native_id=f"chaos{run}-{i}",
                slug=f"{p.slug}-r{run}",
                description=p.description.replace(p.employer, employer),
            )
        )
    return out


class Zygote:
    """``jobctrl.testing.runtime.zygote`` in its own process: forks ``jobctrl`` commands on request."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jobctrl.testing.runtime.zygote"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def spawn(self, args: list[str], log: Path) -> int:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"args": args, "log": str(log)}) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.strip().isdigit(), f"the zygote answered {answer!r} (exit {self.process.poll()})"
        return int(answer)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class Supervised:
    """One ``jobctrl`` process forked by the zygote, killed with SIGKILL and started again."""

    zygote: Zygote
    args: list[str]
    log: Path
    kills: int = 0
    pid: int = 0

    def start(self) -> None:
        self.log.touch()  # there to read before the child opened it
        self.pid = self.zygote.spawn(self.args, self.log)

    def alive(self) -> bool:
        return self.pid > 0 and _alive(self.pid)

    def kill9(self) -> None:
        """SIGKILL (no handler runs, nothing is flushed), await its end, start a new one at once."""
        assert self.alive(), f"{self.args[0]} died on its own:\n{self.tail()}"
        os.kill(self.pid, signal.SIGKILL)
        self._await_gone(10)
        self.kills += 1
        self.start()

    def stop(self) -> None:
        """SIGTERM, a graceful stop within a bounded wait (then SIGKILL, and say so)."""
        if not self.alive():
            return
        os.kill(self.pid, signal.SIGTERM)
        if not self._await_gone(60):
            os.kill(self.pid, signal.SIGKILL)
            raise AssertionError(f"{self.args[0]} ignored SIGTERM for 60 s:\n{self.tail()}")

    def _await_gone(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.alive():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def wait_for_line(sup: Supervised, text: str, count: int, deadline_s: float) -> None:
    """Until ``text`` appears ``count`` times in the process's log (a started worker says so)."""
    deadline = time.monotonic() + deadline_s
    while sup.log.read_text(errors="replace").count(text) < count:
        assert time.monotonic() < deadline and sup.alive(), f"no {text!r} #{count}:\n{sup.tail()}"
        time.sleep(0.05)


#: The streams that hold what happened to one job (``<prefix>-<job id>``).
JOB_STREAMS = ("job", "enrich", "score", "stages", "cover", "resume", "materials")
#: A run's own facts (its tenant's): the run started, its source crawled, its cohort closed, it ended.
RUN_FACTS = frozenset(
    {
        "DiscoveryRunStarted",
        "SourceCrawlRecorded",
        "DiscoveryExecutionMembershipClosed",
        "DiscoveryRunCompleted",
    }
)


@dataclass
class Ledger:
    """Lost and duplicated events, each counted against the fact's own subject: a job, a workflow, a
    run.  Another run's backlog sweep may prepare a job that a killed run left unscored (its own
    preparation waiting out a timeout), so a job's facts are judged per job, whoever recorded them."""

    events: list[StoredEvent]
    lost: int = 0
    duplicated: int = 0

    def job(self, job_id: str) -> Counter[str]:
        streams = {f"{prefix}-{job_id}" for prefix in JOB_STREAMS}
        return Counter(
            e.event_type for e in self.events if e.stream_id in streams and e.event_type not in ATTEMPTS
        )

    def run(self, tenant: str) -> Counter[str]:
        return Counter(
            e.event_type for e in self.events if e.tenant_id == tenant and e.event_type in RUN_FACTS
        )

    def compare(self, expected: Counter[str], actual: Counter[str]) -> None:
        """A fact of the control's missing here is lost; one beyond the control's is duplicated."""
        self.lost += sum((expected - actual).values())
        self.duplicated += sum((actual - expected).values())

    def workflows(self) -> int:
        """Every workflow stream: started once and ended once (a start without its end is lost)."""
        per: dict[str, Counter[str]] = {}
        for e in self.events:
            if e.stream_id.startswith("workflow-"):
                per.setdefault(e.stream_id, Counter())[e.event_type] += 1
        for counts in per.values():
            ends = counts["WorkflowCompleted"] + counts["WorkflowFailed"]
            self.compare(
                Counter({"WorkflowStarted": 1, "end": 1}),
                Counter(WorkflowStarted=counts["WorkflowStarted"], end=ends),
            )
        return len(per)

    def ids(self) -> None:
        """An event id recorded twice is a duplicate whatever its type."""
        self.duplicated += len(self.events) - len({e.event_id for e in self.events})
