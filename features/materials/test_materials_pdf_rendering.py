"""Step definitions for features/materials/pdf_rendering.feature (real Chromium)."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.materials.adapters.artifacts import ArtifactKind, artifact_id_for
from jobctrl.materials.adapters.rendering.html import PageSize, resume_html
from jobctrl.materials.adapters.rendering.pdf_text import pdf_text
from jobctrl.materials.domain.aggregate import ArtifactType
from jobctrl.materials.domain.documents import decode_resume
from jobctrl.materials.domain.profile import Link

from .conftest import World

pytestmark = pytest.mark.browser
scenarios("materials/pdf_rendering.feature")

# PDF points (1/72 in): A4 is 210 x 297 mm, Letter 8.5 x 11 in.
PAGE_SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def _pdfinfo(path: Path) -> dict[str, str]:
    """poppler's reading of the file (``make pdftools``), independent of how we wrote it."""
    done = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True, timeout=30)
    out = done.stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def _assert_paper(path: Path, size: str) -> None:
    info = _pdfinfo(path)
    width, height = PAGE_SIZES[size]
    w, _, h = info["Page size"].split(" pts")[0].partition(" x ")
    assert abs(float(w) - width) < 1.5 and abs(float(h) - height) < 1.5, info["Page size"]
    assert info["Pages"] == "1", info["Pages"]


def _alter(world: World, kind: ArtifactKind, artifact_id: str) -> None:
    path = world.artifacts.path_of(artifact_id, kind)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit is enough
    path.write_bytes(bytes(data))


@given("the resume PDF was rendered")
def resume_rendered(world: World) -> None:
    world.render(ArtifactType.RESUME)


@given("the resume PDF was stored but its event was never recorded")
def stored_without_event(world: World) -> None:
    resume_id = world.materials().resume_artifact_id
    assert resume_id is not None
    resume = decode_resume(world.artifacts.get(resume_id, ArtifactKind.RESUME_JSON)[1])
    pdf = world.renderer.inner.render(resume_html(resume))
    pdf_id = artifact_id_for(ArtifactKind.RESUME_PDF, world.job_id, resume_id, "classic", "letter")
    world.artifacts.put(pdf_id, ArtifactKind.RESUME_PDF, pdf)


@given("the stored resume PDF was altered on disk")
def alter_pdf(world: World) -> None:
    [rendered] = world.materials().rendered
    _alter(world, ArtifactKind.RESUME_PDF, rendered)


@given("the stored resume was altered on disk")
def alter_resume(world: World) -> None:
    resume_id = world.materials().resume_artifact_id
    assert resume_id is not None
    _alter(world, ArtifactKind.RESUME_JSON, resume_id)


@given(parsers.parse('today is "{day}"'))
def today_is(world: World, day: str) -> None:
    world.clock.advance(datetime.fromisoformat(day).replace(tzinfo=UTC) - world.clock.now())


@given(parsers.parse('the candidate\'s profile gives the phone "{phone}" and the link "{url}"'))
def contact_details(world: World, phone: str, url: str) -> None:
    world.profile = msgspec.structs.replace(world.profile, phone=phone, links=[Link(label="GitHub", url=url)])


@then(parsers.parse('the PDF opens with the lines "{first}", "{second}", "{third}" and "{fourth}"'))
def pdf_opens_with(world: World, first: str, second: str, third: str, fourth: str) -> None:
    [event] = world.raised_events("PdfRendered")
    path = world.artifacts.path_of(event.artifact_id, ArtifactKind.COVER_LETTER_PDF)
    done = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    )
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    assert lines[:4] == [first, second, third, fourth], lines[:6]


@when("the resume PDF is rendered")
def render_resume(world: World) -> None:
    world.act(lambda: world.render(ArtifactType.RESUME))


@when(parsers.parse('the resume PDF is rendered on "{paper}" paper'))
def render_on(world: World, paper: str) -> None:
    world.act(lambda: world.render(ArtifactType.RESUME, paper_size=PageSize(paper)))


@when(parsers.parse('both PDFs are rendered on "{paper}" paper'))
def render_both_on(world: World, paper: str) -> None:
    def both() -> None:
        for kind in (ArtifactType.RESUME, ArtifactType.COVER_LETTER):
            world.render(kind, paper_size=PageSize(paper))

    world.act(both)


@then(parsers.parse('both stored PDFs are one "{paper}" page each'))
def both_on(world: World, paper: str) -> None:
    events = world.raised_events("PdfRendered")
    assert sorted(e.artifact_type for e in events) == ["cover_letter", "resume"]
    for event in events:
        kind = ArtifactKind.RESUME_PDF if event.artifact_type == "resume" else ArtifactKind.COVER_LETTER_PDF
        world.artifacts.get(event.artifact_id, kind)  # verified against its digest
        _assert_paper(world.artifacts.path_of(event.artifact_id, kind), paper)


@when("the cover letter PDF is rendered")
def render_cover(world: World) -> None:
    world.act(lambda: world.render(ArtifactType.COVER_LETTER))


@then(parsers.parse('the stored PDF is a "{size}" page titled "{title}"'))
def stored_pdf(world: World, size: str, title: str) -> None:
    [event] = world.raised_events("PdfRendered")
    kind = ArtifactKind.RESUME_PDF if event.artifact_type == "resume" else ArtifactKind.COVER_LETTER_PDF
    stored, data = world.artifacts.get(event.artifact_id, kind)
    assert data.startswith(b"%PDF-") and stored.sha256 == world.outcome.sha256
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert boxes
    width, height = PAGE_SIZES[size]
    for w, h in boxes:
        assert abs(float(w) - width) < 1.5 and abs(float(h) - height) < 1.5, (w, h)
    assert f"/Title ({title})".encode() in data
    _assert_paper(world.artifacts.path_of(event.artifact_id, kind), size)


@then(parsers.parse('the PDF reads "{first}" and "{second}"'))
def pdf_reads(world: World, first: str, second: str) -> None:
    [event] = world.raised_events("PdfRendered")
    kind = ArtifactKind.RESUME_PDF if event.artifact_type == "resume" else ArtifactKind.COVER_LETTER_PDF
    text = pdf_text(world.artifacts.get(event.artifact_id, kind)[1])
    assert first in text and second in text, text[:300]


@then("Chromium rendered nothing")
def nothing_rendered(world: World) -> None:
    assert world.renderer.calls == 0
