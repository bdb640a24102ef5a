"""Step definitions for features/materials/pdf_rendering.feature (real Chromium)."""

from __future__ import annotations

import re

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.materials.aggregate import ArtifactType
from jobctrl.materials.artifacts import ArtifactKind, artifact_id_for
from jobctrl.materials.documents import decode_resume
from jobctrl.materials.rendering.html import resume_html
from jobctrl.materials.rendering.pdf_text import pdf_text

from .conftest import World

pytestmark = pytest.mark.browser
scenarios("materials/pdf_rendering.feature")

# PDF points (1/72 in): A4 is 210 x 297 mm, Letter 8.5 x 11 in.
PAGE_SIZES = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}


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
    pdf_id = artifact_id_for(ArtifactKind.RESUME_PDF, world.job_id, resume_id, "classic")
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


@when("the resume PDF is rendered")
def render_resume(world: World) -> None:
    world.act(lambda: world.render(ArtifactType.RESUME))


@when(parsers.parse('the resume PDF is rendered with theme "{theme}"'))
def render_theme(world: World, theme: str) -> None:
    world.act(lambda: world.render(ArtifactType.RESUME, theme))


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


@then(parsers.parse('the PDF reads "{first}" and "{second}"'))
def pdf_reads(world: World, first: str, second: str) -> None:
    [event] = world.raised_events("PdfRendered")
    kind = ArtifactKind.RESUME_PDF if event.artifact_type == "resume" else ArtifactKind.COVER_LETTER_PDF
    text = pdf_text(world.artifacts.get(event.artifact_id, kind)[1])
    assert first in text and second in text, text[:300]


@then("Chromium rendered nothing")
def nothing_rendered(world: World) -> None:
    assert world.renderer.calls == 0
