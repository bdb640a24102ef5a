"""Step definitions for features/materials/cover_letters.feature (shared steps: conftest.py)."""

from __future__ import annotations

from pytest_bdd import given, parsers, scenarios, then

from jobctrl.materials.adapters.artifacts import ArtifactKind
from jobctrl.materials.domain.documents import decode_cover_letter
from jobctrl.materials.use_cases.write_cover_letter import CoverStatus

from .conftest import World

scenarios("materials/cover_letters.feature")


@given(parsers.parse('the model will open with the salutation "{text}"'))
def salutation(world: World, text: str) -> None:
    world.writer.cover_edits.append(lambda d: d.update(salutation=text))


@then(parsers.parse('the letter is addressed to "{company}" for the role "{role}"'))
def addressed(world: World, company: str, role: str) -> None:
    letter = decode_cover_letter(
        world.artifacts.get(world.outcome.artifact_id, ArtifactKind.COVER_LETTER_JSON)[1]
    )
    assert (letter.company, letter.role_title) == (company, role)
    assert letter.resume_artifact_id == world.materials().resume_artifact_id
    assert role in letter.paragraphs[0].text and company in letter.paragraphs[0].text


@then("every paragraph cites facts of the profile")
def paragraphs_cite(world: World) -> None:
    letter = decode_cover_letter(
        world.artifacts.get(world.outcome.artifact_id, ArtifactKind.COVER_LETTER_JSON)[1]
    )
    known = world.profile.fact_ids()
    assert letter.paragraphs and all(p.fact_ids and set(p.fact_ids) <= known for p in letter.paragraphs)


@then(parsers.parse('the letter is refused with a "{code}" error on "{token}"'))
def letter_refused(world: World, code: str, token: str) -> None:
    assert world.outcome.status is CoverStatus.REJECTED
    assert f"{code}@paragraph/" in " ".join(world.outcome.validation_errors)
    assert any(e.endswith(f": {token}") for e in world.outcome.validation_errors), (
        world.outcome.validation_errors
    )
    assert world.materials().current_cover_artifact_id is None
