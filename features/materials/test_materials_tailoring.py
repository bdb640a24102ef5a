"""Step definitions for features/materials/tailoring.feature (shared steps: conftest.py)."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.materials.adapters.artifacts import ArtifactKind
from jobctrl.materials.domain.documents import TailoredResume, decode_resume

from .conftest import World

scenarios("materials/tailoring.feature")


def _accepted(world: World) -> TailoredResume:
    artifact_id = world.materials().resume_artifact_id
    assert artifact_id is not None
    return decode_resume(world.artifacts.get(artifact_id, ArtifactKind.RESUME_JSON)[1])


@given(parsers.parse('the model will order the skill categories "{ids}"'))
def order_skills(world: World, ids: str) -> None:
    order = [i.strip() for i in ids.split(",")]

    def edit(draft: dict[str, Any]) -> None:
        by_id = {c["category_id"]: c for c in draft["skill_categories"]}
        draft["skill_categories"] = [by_id[i] for i in order]

    world.writer.resume_edits.append(edit)


@given(parsers.parse('the model will add the skill category "{category}" listing "{skill}"'))
def add_category(world: World, category: str, skill: str) -> None:
    world.writer.resume_edits.append(
        lambda d: d["skill_categories"].append({"category_id": category, "skills": [skill]})
    )


@given(parsers.parse('the model will add a "{name}" section'))
def add_section(world: World, name: str) -> None:
    world.writer.resume_edits.append(lambda d: d.update({name: [{"text": "A paper", "sources": ["sum-1"]}]}))


@given(parsers.parse('the model will set the "{field_name}" of "{experience}" to "{value}"'))
def set_experience_field(world: World, field_name: str, experience: str, value: str) -> None:
    def edit(draft: dict[str, Any]) -> None:
        for update in draft["experience_updates"]:
            if update["experience_id"] == experience:
                update[field_name] = value

    world.writer.resume_edits.append(edit)


@then("no resume is accepted")
def none_accepted(world: World) -> None:
    assert world.materials().resume_artifact_id is None and world.raised() == ["ResumeFailed"]


@when(parsers.parse("the resume is tailored again from baseline generation {baseline:d}"))
def tailor_from_baseline(world: World, baseline: int) -> None:
    world.act(lambda: world.tailor(baseline=baseline))


@then(parsers.parse("the resume is accepted as generation {generation:d}"))
def accepted_generation(world: World, generation: int) -> None:
    materials = world.materials()
    assert materials.generation == generation
    assert world.outcome.artifact_id == materials.resume_artifact_id


@then("every rendered line cites facts of the profile, one provenance record each")
def provenance_complete(world: World) -> None:
    resume = _accepted(world)
    lines = resume.provenance()
    known = world.profile.fact_ids()
    assert lines and all(line.fact_ids and set(line.fact_ids) <= known for line in lines)
    [recorded] = world.raised_events("BulletProvenanceRecorded")
    assert recorded.bullet_count == len(lines)
    assert len({line.line_id for line in lines}) == len(lines)


@then(parsers.parse('the experience "{experience}" reads "{header}" dated "{dates}"'))
def experience_header(world: World, experience: str, header: str, dates: str) -> None:
    [exp] = [e for e in _accepted(world).experiences if e.experience_id == experience]
    assert (exp.header.text, exp.dates) == (header, dates)


@then(parsers.parse('the experiences are "{ids}" in profile order'))
def experience_order(world: World, ids: str) -> None:
    assert [e.experience_id for e in _accepted(world).experiences] == [i.strip() for i in ids.split(",")]


@then(parsers.parse('the bullet "{text}" is listed under "{experience}"'))
def bullet_under(world: World, text: str, experience: str) -> None:
    [exp] = [e for e in _accepted(world).experiences if e.experience_id == experience]
    assert text in [b.text for b in exp.bullets]


@then(parsers.parse('the skills read "{first}" then "{second}"'))
def skills_read(world: World, first: str, second: str) -> None:
    assert [line.text for line in _accepted(world).skills] == [first, second]


@then(parsers.parse('the artifact store holds {count:d} "{kind}" artifact'))
def store_holds(world: World, count: int, kind: str) -> None:
    manifests = list(world.artifacts.root.glob(f"{kind}-*.manifest.json"))
    assert len(manifests) == count
