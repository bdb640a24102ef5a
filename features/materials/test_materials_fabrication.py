"""Step definitions for features/materials/fabrication.feature (shared steps: conftest.py)."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, parsers, scenarios, then

from .conftest import World

scenarios("materials/fabrication.feature")


@given(parsers.parse('the model will list the skills "{skills}" under "{category}"'))
def list_skills(world: World, skills: str, category: str) -> None:
    listed = [s.strip() for s in skills.split(",")]

    def edit(draft: dict[str, Any]) -> None:
        for update in draft["skill_categories"]:
            if update["category_id"] == category:
                update["skills"] = listed

    world.writer.resume_edits.append(edit)


@then(parsers.parse("the resume is now generation {generation:d}"))
def generation_now(world: World, generation: int) -> None:
    materials = world.materials()
    assert materials.generation == generation
    assert materials.resume_artifact_id != world.accepted_before
