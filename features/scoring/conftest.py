"""Shared fixtures and steps for the scoring scenarios: a fresh store, a fixed clock, the offline LLM."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import pytest
from pytest_bdd import given, parsers, then, when
from typer.testing import Result

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.llm import NullSpendRecorder, OfflineProvider
from jobctrl.scoring.adapters.offline_rules import register_offline_scoring
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.domain.profile import CandidateProfile, EvidenceItem, EvidenceKind
from jobctrl.scoring.events import JobScored, ScoreCorrected
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job

POSTING = """Senior Backend Engineer

Requirements:
- 5+ years of Python experience
- Experience with PostgreSQL and AWS
{extra_must}
Nice to have:
- Kubernetes
{extra_nice}
"""


@pytest.fixture
def spend() -> NullSpendRecorder:
    return NullSpendRecorder()


@pytest.fixture
def llm(spend: NullSpendRecorder) -> OfflineProvider:
    provider = OfflineProvider(spend)
    register_offline_scoring(provider)
    return provider


def profile(*, authorized_in: str | None = "United States") -> CandidateProfile:
    items = [
        EvidenceItem(id="skill-python", kind=EvidenceKind.SKILL, text="Python"),
        EvidenceItem(id="skill-postgres", kind=EvidenceKind.SKILL, text="PostgreSQL"),
        EvidenceItem(id="skill-gcp", kind=EvidenceKind.SKILL, text="GCP"),
        EvidenceItem(
            id="exp-acme-1", kind=EvidenceKind.EXPERIENCE, text="Built Python services at Acme", years=6
        ),
    ]
    if authorized_in:
        items.append(
            EvidenceItem(
                id="auth-1",
                kind=EvidenceKind.AUTHORIZATION,
                text=f"Authorized to work in the {authorized_in}",
            )
        )
    return CandidateProfile(profile_version=3, total_years_experience=6, evidence=tuple(items))


class ApiAnswer(Protocol):
    """The API's answer as the test client gives it (httpx's or httpx2's ``Response``, whichever Starlette
    found installed)."""

    status_code: int

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


@dataclass
class World:
    """What a scoring scenario has said and seen: the posting's extra lines, the candidate, and what the
    last command returned or raised."""

    extra_must: str = ""
    extra_nice: str = ""
    candidate: CandidateProfile = field(default_factory=profile)
    head_before: int = 0
    result: object = None
    error: JobCtrlError | None = None
    cli: Result | None = None
    response: ApiAnswer | None = None

    def attempt(self, action: Callable[[], object]) -> None:
        try:
            self.result = action()
        except JobCtrlError as exc:
            self.error = exc


@pytest.fixture
def world() -> World:
    return World()


def scored_events(store: EventStore, job_id: str) -> list[Any]:
    return [store.registry.decode(row) for row in store.read_stream(JobScore.stream_id_for(job_id))]


@given(parsers.parse('the posting also requires "{text}"'))
def also_requires(world: World, text: str) -> None:
    world.extra_must += f"- {text}\n"


@given(parsers.parse('the posting also offers "{text}"'))
def also_offers(world: World, text: str) -> None:
    world.extra_nice += f"- {text}\n"


@given(parsers.parse('job "{job_id}" was scored'))
@when(parsers.parse('job "{job_id}" is scored'))
def is_scored(store: EventStore, llm: OfflineProvider, clock: FixedClock, world: World, job_id: str) -> None:
    description = POSTING.format(extra_must=world.extra_must, extra_nice=world.extra_nice)
    candidate = world.candidate
    world.attempt(
        lambda: score_job(ScoreJob(job_id, description, candidate), store=store, llm=llm, clock=clock)
    )


@then(parsers.parse('job "{job_id}" has score version {version:d}'))
def has_version(store: EventStore, job_id: str, version: int) -> None:
    assert AggregateRepository.for_class(store, JobScore).get(job_id).score_version == version


@then(parsers.parse('the command is refused with "{code}" and nothing is written'))
def refused_nothing_written(store: EventStore, world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code
    assert world.head_before == store.head_position()


@then(parsers.parse("the log holds {count:d} {event_type} events"))
@then(parsers.parse("the log holds {count:d} {event_type} event"))
def log_holds(store: EventStore, count: int, event_type: str) -> None:
    assert len(store.read_all(limit=10_000, types=[event_type])) == count


@then(parsers.parse("the correction records the original score and {value:d}"))
def correction_recorded(store: EventStore, value: int) -> None:
    events = scored_events(store, "job-1")
    original = next(e for e in events if isinstance(e, JobScored)).fit_score
    [correction] = [e for e in events if isinstance(e, ScoreCorrected)]
    assert (correction.original_score, correction.corrected_score) == (original, value)
    assert original != value
