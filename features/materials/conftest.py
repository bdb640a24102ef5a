"""Shared world and steps of the Materials scenarios.

The model is the deterministic offline writer, optionally told to stray (``ScriptedWriter``): each
"the model will ..." step edits its draft before the use case sees it, the way a real model might.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel
from pytest_bdd import given, parsers, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.llm.port import StructuredRequest, StructuredResult
from jobctrl.materials.adapters.artifacts import ArtifactStore
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.adapters.rendering.html import PageSize
from jobctrl.materials.adapters.rendering.pdf import ChromiumPdfRenderer
from jobctrl.materials.domain.aggregate import ArtifactType, JobMaterials
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.domain.sample import sample_posting, sample_profile
from jobctrl.materials.ports import TAILOR_TASK, PdfRenderer
from jobctrl.materials.use_cases._common import repository
from jobctrl.materials.use_cases.render_pdf import RenderPdf, render_pdf
from jobctrl.materials.use_cases.tailor_resume import TailorResume, tailor_resume
from jobctrl.materials.use_cases.write_cover_letter import WriteCoverLetter, write_cover_letter

T = TypeVar("T", bound=BaseModel)
Edit = Callable[[dict[str, Any]], None]


class ScriptedWriter:
    """The offline writer plus scripted edits to its drafts; counts the calls it answers."""

    model = "local-scripted"

    def __init__(self) -> None:
        self.base = OfflineMaterialsWriter()
        self.resume_edits: list[Edit] = []
        self.cover_edits: list[Edit] = []
        self.calls = 0

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        self.calls += 1
        result = self.base.structured(request)
        data = result.value.model_dump()
        for edit in self.resume_edits if request.task == TAILOR_TASK else self.cover_edits:
            edit(data)
        return StructuredResult(value=request.response_model.model_validate(data), usage=result.usage)


class CountingRenderer:
    def __init__(self, inner: PdfRenderer) -> None:
        self.inner = inner
        self.calls = 0

    def render(self, html: str) -> bytes:
        self.calls += 1
        return self.inner.render(html)


@dataclass
class World:
    store: EventStore
    artifacts: ArtifactStore
    renderer: CountingRenderer
    clock: FixedClock = field(default_factory=FixedClock)
    writer: ScriptedWriter = field(default_factory=ScriptedWriter)
    profile: CandidateProfile = field(default_factory=sample_profile)
    posting: TargetPosting = field(default_factory=sample_posting)
    mark: int = 0
    outcome: Any = None
    error: JobCtrlError | None = None
    accepted_before: str | None = None

    @property
    def job_id(self) -> str:
        return self.posting.job_id

    def materials(self) -> JobMaterials:
        return repository(self.store, self.clock).load(self.job_id) or JobMaterials(self.job_id)

    def act(self, action: Callable[[], Any]) -> None:
        """Run a command as the scenario's When: remember where the log was and what it raised."""
        self.mark = self.store.head_position()
        self.accepted_before = self.materials().resume_artifact_id
        self.writer.calls = 0
        self.renderer.calls = 0
        try:
            self.outcome = action()
        except JobCtrlError as exc:
            self.error = exc

    def raised(self) -> list[str]:
        return [row.event_type for row in self.store.read_all(after=self.mark)]

    def raised_events(self, event_type: str) -> list[Any]:
        return [
            self.store.registry.decode(r) for r in self.store.read_all(after=self.mark, types=[event_type])
        ]

    def tailor(self, baseline: int | None = None) -> Any:
        return tailor_resume(
            TailorResume(self.profile, self.posting, baseline_generation=baseline),
            store=self.store, llm=self.writer, artifacts=self.artifacts, clock=self.clock,
        )  # fmt: skip

    def cover(self, attempt: int = 1) -> Any:
        return write_cover_letter(
            WriteCoverLetter(self.profile, self.posting, attempt_number=attempt),
            store=self.store, llm=self.writer, artifacts=self.artifacts, clock=self.clock,
        )  # fmt: skip

    def render(
        self, artifact_type: ArtifactType, theme_id: str = "classic", paper_size: PageSize = PageSize.LETTER
    ) -> Any:
        return render_pdf(
            RenderPdf(self.job_id, artifact_type, theme_id, paper_size),
            store=self.store, renderer=self.renderer, artifacts=self.artifacts, clock=self.clock,
        )  # fmt: skip


@pytest.fixture(scope="module")
def chromium() -> Iterator[ChromiumPdfRenderer]:
    with ChromiumPdfRenderer() as renderer:
        yield renderer


@pytest.fixture
def world(store: EventStore, tmp_path: Path, request: pytest.FixtureRequest) -> World:
    # Chromium is started only by scenarios that render.
    lazy = _LazyChromium(request)
    return World(
        store=store, artifacts=ArtifactStore(tmp_path / "artifacts"), renderer=CountingRenderer(lazy)
    )


class _LazyChromium:
    def __init__(self, request: pytest.FixtureRequest) -> None:
        self._request = request

    def render(self, html: str) -> bytes:
        renderer: ChromiumPdfRenderer = self._request.getfixturevalue("chromium")
        return renderer.render(html)


# -- the model's draft, scripted ------------------------------------------------------------------
def _line(text: str, facts: str) -> dict[str, Any]:
    return {"text": text, "sources": [f.strip() for f in facts.split(",")]}


def _update_for(draft: dict[str, Any], experience: str) -> dict[str, Any]:
    updates: list[dict[str, Any]] = draft["experience_updates"]
    for update in updates:
        if update["experience_id"] == experience:
            return update
    added: dict[str, Any] = {"experience_id": experience, "bullets": []}
    updates.append(added)
    return added


@given(parsers.parse('the model will add the bullet "{text}" to "{experience}" citing "{facts}"'))
def model_adds_bullet(world: World, text: str, experience: str, facts: str) -> None:
    world.writer.resume_edits.append(
        lambda d: _update_for(d, experience)["bullets"].append(_line(text, facts))
    )


@given(parsers.parse('the model will write the summary "{text}" citing "{facts}"'))
def model_writes_summary(world: World, text: str, facts: str) -> None:
    world.writer.resume_edits.append(lambda d: d.update(summary=[_line(text, facts)]))


@given(parsers.parse('the model will write the cover paragraph "{text}" citing "{facts}"'))
def model_writes_paragraph(world: World, text: str, facts: str) -> None:
    world.writer.cover_edits.append(lambda d: d["paragraphs"].append(_line(text, facts)))


# -- past events -----------------------------------------------------------------------------------
@given("a tailored resume was accepted for the job")
def resume_accepted(world: World) -> None:
    edits, world.writer.resume_edits = world.writer.resume_edits, []
    world.tailor()
    world.writer.resume_edits = edits


@given("a cover letter was written for the job")
def cover_written(world: World) -> None:
    edits, world.writer.cover_edits = world.writer.cover_edits, []
    world.cover()
    world.writer.cover_edits = edits


@given(parsers.parse("{count:d} tailoring attempts have failed"))
def attempts_failed(world: World, count: int) -> None:
    repo = repository(world.store, world.clock)
    for _ in range(count):
        materials = repo.load(world.job_id) or JobMaterials(world.job_id)
        materials.fail_resume(["fabricated_number@summary/0: 99"])
        repo.save(materials)


# -- commands --------------------------------------------------------------------------------------
@when("the resume is tailored")
@when("the resume is tailored again")
def tailor(world: World) -> None:
    world.act(world.tailor)


@when("the cover letter is written")
def cover(world: World) -> None:
    world.act(world.cover)


@when(parsers.parse("the cover letter is written on attempt {attempt:d}"))
def cover_attempt(world: World, attempt: int) -> None:
    world.act(lambda: world.cover(attempt))


# -- outcomes --------------------------------------------------------------------------------------
@then(parsers.parse('the events raised are "{names}"'))
def events_raised(world: World, names: str) -> None:
    assert world.error is None, world.error
    assert world.raised() == [n.strip() for n in names.split(",")]


@then("no event is raised")
def nothing_raised(world: World) -> None:
    assert world.raised() == []


@then(parsers.parse('the attempt fails with a "{code}" error on "{token}"'))
def failed_with(world: World, code: str, token: str) -> None:
    [failed] = world.raised_events("ResumeFailed")
    assert any(e.startswith(f"{code}@") and e.endswith(f": {token}") for e in failed.validation_errors), (
        failed.validation_errors
    )


@then(parsers.parse('the attempt fails with a "{code}" error'))
def failed_with_code(world: World, code: str) -> None:
    [failed] = world.raised_events("ResumeFailed")
    assert any(e.startswith(f"{code}@") for e in failed.validation_errors), failed.validation_errors


@then("the last accepted resume is kept")
def accepted_kept(world: World) -> None:
    assert world.accepted_before is not None
    assert world.materials().resume_artifact_id == world.accepted_before
    assert world.outcome.artifact_id == world.accepted_before


@then(parsers.parse('the request is refused as "{code}"'))
def refused(world: World, code: str) -> None:
    assert world.error is not None and world.error.code == code, world.error


@then(parsers.parse("the model was asked {count:d} times"))
@then(parsers.parse("the model was asked {count:d} time"))
def model_calls(world: World, count: int) -> None:
    assert world.writer.calls == count
