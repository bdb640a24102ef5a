"""Steps of features/discovery/discovery_rules.feature (pure domain, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.domain.content import content_fingerprint, shingles
from jobctrl.discovery.domain.dedupe import Candidate, Decision, JobCatalog, KnownJob, decide
from jobctrl.discovery.domain.errors import DiscoveryRuleViolated
from jobctrl.discovery.domain.execution import DiscoveryExecution
from jobctrl.discovery.domain.identity import resolve_identity
from jobctrl.discovery.domain.source_health import SourceRunOutcome, recommend
from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.discovery.events import DiscoveryRunProgressRecorded
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.orchestration import DiscoveryRun, progress_total

scenarios("discovery/discovery_rules.feature")
T = "2026-03-02T09:00:00.000Z"
LONG = " ".join(f"word{i} task{i % 7} skill{i % 11}" for i in range(60))


@dataclass
class World:
    """What a discovery-rules scenario remembers between its steps."""

    decision: Decision | None = None  # the dedupe decision on the last observed posting
    text: str = ""  # the known job's description
    title: str = ""  # the known job's title
    employer: str = ""  # the known job's employer

    def decided(self) -> Decision:
        assert self.decision is not None, "no posting was observed"
        return self.decision


@pytest.fixture
def world() -> World:
    return World()


@then(parsers.parse('"{observed}" normalizes to "{expected}"'))
def normalizes(observed: str, expected: str) -> None:
    assert normalize_url(observed) == expected


@given(parsers.parse('a known job at "{url}" with native id "{native}"'), target_fixture="catalog")
def known_job(url: str, native: str) -> JobCatalog:
    catalog = JobCatalog()
    catalog.add(KnownJob("job-1", normalize_url(url), ("other", native), "Acme", "fp", None))
    return catalog


@when(parsers.parse('a posting at "{url}" is observed with {supplied}'))
def observed_with(catalog: JobCatalog, world: World, url: str, supplied: str) -> None:
    canonical = url if supplied.startswith("canonical") else None
    native = "1" if "native" in supplied else None
    identity = resolve_identity(posting_url=url, canonical_url=canonical, native_id=native, ats_kind="other")
    world.decision = decide(Candidate(identity, "Engineer", "Acme", "text"), catalog)


@then(parsers.parse("the identity confidence is {confidence:f} and the verdict is {verdict}"))
def confidence_and_verdict(world: World, confidence: float, verdict: str) -> None:
    assert world.decided().confidence == confidence and world.decided().verdict.value == verdict


@given(
    parsers.parse('a known job "{title}" at "{employer}" with a {length} description'),
    target_fixture="catalog",
)
def known_sized(title: str, employer: str, length: str, world: World) -> JobCatalog:
    text = LONG if length == "long" else " ".join(LONG.split()[:70])
    catalog = JobCatalog()
    catalog.add(
        KnownJob(
            "job-1",
            "https://a.example/1",
            None,
            employer,
            content_fingerprint(title, employer, text),
            shingles(text),
        )
    )
    world.text, world.title, world.employer = text, title, employer
    return catalog


@when(parsers.parse('a posting "{title}" at "{employer}" with the description lightly edited is observed'))
def edited_posting(catalog: JobCatalog, world: World, title: str, employer: str) -> None:
    assert world.text, "no known job was described"
    words = world.text.split()
    edited = " ".join([*words[:-3], "and", "more", "benefits"])
    identity = resolve_identity(
        posting_url="https://b.example/9", canonical_url=None, native_id=None, ats_kind="other"
    )
    world.decision = decide(Candidate(identity, title, employer, edited), catalog)


@when("the same posting from another source is observed")
def same_content(catalog: JobCatalog, world: World) -> None:
    assert world.text, "no known job was described"
    identity = resolve_identity(
        posting_url="https://b.example/9", canonical_url=None, native_id=None, ats_kind="other"
    )
    world.decision = decide(Candidate(identity, world.title, world.employer, world.text), catalog)


@then(parsers.parse("the verdict is {verdict}"))
def verdict_is(world: World, verdict: str) -> None:
    assert world.decided().verdict.value == verdict


@given(parsers.parse("a discovery run planned with {families:d} source families"), target_fixture="run")
def planned_run(families: int) -> DiscoveryRun:
    assert progress_total(families) == families + 2
    return DiscoveryRun("run-1")


@when(parsers.parse("progress reports arrive as {reports}"))
def reports_arrive(run: DiscoveryRun, reports: str) -> None:
    for report in reports.split(", "):
        done, total = (int(x) for x in report.split("/"))
        run.report_progress(completed=done, total=total, at=T)


@then(parsers.parse("the recorded progress is {expected}"))
def recorded(run: DiscoveryRun, expected: str) -> None:
    got = [
        f"{e.completed}/{e.total}" for e in run.pending_events if isinstance(e, DiscoveryRunProgressRecorded)
    ]
    assert got == expected.split(", ")


@given(parsers.parse('a Discover execution "{wf}" run "{rid}"'), target_fixture="execution")
def execution(wf: str, rid: str) -> DiscoveryExecution:
    return DiscoveryExecution.for_ref(ExecutionRef("local", wf, rid))


@when(parsers.parse('job "{job}" is linked as {a}, then as {b}, then as {c}'))
def link_three(execution: DiscoveryExecution, job: str, a: Any, b: Any, c: Any) -> None:
    for cohort in (a, b, c):
        execution.link(job, cohort, at=T)


@when(parsers.parse('job "{job}" is planned with steps "{steps}" and child "{child}"'))
def plan(execution: DiscoveryExecution, job: str, steps: str, child: str) -> None:
    execution.plan(job, steps=steps.split(","), child_workflow_id=child, at=T)


@when("membership is closed")
def close(execution: DiscoveryExecution) -> None:
    execution.close_membership(at=T)


@then(parsers.parse('job "{job}" is a member once, in cohort {cohort}, planned'))
def member_once(execution: DiscoveryExecution, job: str, cohort: str) -> None:
    linked = [e for e in execution.pending_events if getattr(e, "cohort", None) is not None]
    assert len(linked) == 1 and len(execution.members) == 1
    assert execution.members[job].cohort == cohort and execution.members[job].plan_state == "planned"


@then(parsers.parse('linking job "{job}" is refused with "{code}"'))
def link_refused(execution: DiscoveryExecution, job: str, code: str) -> None:
    with pytest.raises(DiscoveryRuleViolated) as err:
        execution.link(job, "observed_this_run", at=T)
    assert err.value.code == code


@then(parsers.parse('re-planning job "{job}" with steps "{steps}" is refused with "{code}"'))
def replan_refused(execution: DiscoveryExecution, job: str, steps: str, code: str) -> None:
    with pytest.raises(DiscoveryRuleViolated) as err:
        execution.plan(job, steps=steps.split(","), child_workflow_id="prep-2", at=T)
    assert err.value.code == code


@then(parsers.parse('a source with outcomes "{outcomes}" is recommended {recommendation}'))
def recommended(outcomes: str, recommendation: str) -> None:
    table = {
        "ok": SourceRunOutcome(True, 10, 1),
        "fail": SourceRunOutcome(False),
        "dup": SourceRunOutcome(True, 10, 10),
    }
    result = recommend("active", [table[o.strip()] for o in outcomes.split(",")])
    if recommendation == "nothing":
        assert result is None
    else:
        assert result is not None and f"{result.to_state} for {result.reason}" == recommendation
