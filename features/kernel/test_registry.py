"""Step definitions for features/kernel/registry.feature."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.domain_types import registry
from jobctrl.domain_types.schemas import EVENTS_DIR, SchemaParityError, check, generate
from jobctrl.kernel.catalog import REFERENCE_EVENT_NAMES
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.registry import EventRegistry, Upcaster
from jobctrl.orchestration.events import PipelineStepQueued
from jobctrl.testing.evolved_events import JobHiddenV2

scenarios("kernel/registry.feature")


class JobHiddenV1Plus(DomainEvent, frozen=True):
    """JobHidden with an extra field but the same schema version (the mistake)."""

    event_type = "JobHidden"
    job_id: str
    reason: str
    hidden_at: str
    hidden_by: str


class RenamedRef(msgspec.Struct, frozen=True, rename="camel"):
    """The execution reference under another type name, with the same fields."""

    tenant_id: str
    workflow_id: str
    temporal_run_id: str


class WiderRef(msgspec.Struct, frozen=True, rename="camel"):
    """The execution reference with one more field (the mistake, one level down)."""

    tenant_id: str
    workflow_id: str
    temporal_run_id: str
    shard: str


class QueuedRenamedRef(PipelineStepQueued, frozen=True):
    execution: RenamedRef  # type: ignore[assignment]


class QueuedWiderRef(PipelineStepQueued, frozen=True):
    execution: WiderRef  # type: ignore[assignment]


def _replace(
    reg: EventRegistry, cls: type[DomainEvent], upcasters: tuple[Upcaster, ...] = ()
) -> EventRegistry:
    return EventRegistry(tuple(cls if c.event_type == cls.event_type else c for c in reg.classes), upcasters)


@dataclass
class World:
    """What a registry scenario holds: the JobCtrl registry, the changed registry a step made from it,
    and the copy of the generated artefacts it is checked against."""

    registry: EventRegistry | None = None
    candidate: EventRegistry | None = None
    target: Path | None = None

    def base(self) -> EventRegistry:
        assert self.registry is not None, "no Given set up the JobCtrl registry"
        return self.registry

    def changed(self) -> tuple[EventRegistry, Path]:
        assert self.candidate is not None and self.target is not None, "no changed registry and artefacts"
        return self.candidate, self.target


@pytest.fixture
def world() -> World:
    return World()


@given("the JobCtrl registry")
def the_registry(world: World) -> None:
    world.registry = registry()


@given("generated artefacts for the JobCtrl registry")
def artefacts(world: World, tmp_path: Path) -> None:
    target = tmp_path / "events"
    shutil.copytree(EVENTS_DIR, target)
    world.registry, world.target = registry(), target


@when("two event types swap places")
def swap(world: World) -> None:
    classes = list(world.base().classes)
    classes[3], classes[4] = classes[4], classes[3]
    world.candidate = EventRegistry(tuple(classes))


@when("the last event type is removed")
def remove_last(world: World) -> None:
    world.candidate = EventRegistry(world.base().classes[:-1])


@when("JobHidden gains a field but keeps schema version 1")
def widen_same_version(world: World) -> None:
    world.candidate = _replace(world.base(), JobHiddenV1Plus)


@when("JobHidden gains a field under schema version 2 with an upcaster from version 1")
def widen_new_version(world: World) -> None:
    up = Upcaster("JobHidden", 1, lambda p: {**p, "hiddenBy": "unknown"})
    world.candidate = _replace(world.base(), JobHiddenV2, (up,))


@when("PipelineStepQueued's execution reference type is renamed but keeps its fields")
def rename_nested(world: World) -> None:
    world.candidate = _replace(world.base(), QueuedRenamedRef)


@when("PipelineStepQueued's execution reference gains a field but keeps schema version 1")
def widen_nested(world: World) -> None:
    world.candidate = _replace(world.base(), QueuedWiderRef)


@then("its first 100 event types are the reference names in the reference order")
def reference_order(world: World) -> None:
    assert world.base().names[:100] == REFERENCE_EVENT_NAMES


@then("it has no StageQueued, DiscoveryRunProgress or CoverLetterFailed event")
def not_events(world: World) -> None:
    for name in ("StageQueued", "DiscoveryRunProgress", "CoverLetterFailed"):
        assert name not in world.base()


@then("the generated schemas, registry.json and TypeScript types are current")
def current(world: World) -> None:
    check(world.base())


@then(parsers.parse("the check fails naming the moved event type"))
def fails_moved(world: World) -> None:
    with pytest.raises(SchemaParityError) as caught:
        check(*world.changed())
    moved = world.base().names[3]
    assert any(p.startswith(f"{moved} moved from index 3") for p in caught.value.problems)


@then("the check fails naming the removed event type")
def fails_removed(world: World) -> None:
    with pytest.raises(SchemaParityError) as caught:
        check(*world.changed())
    base = world.base()
    assert f"{base.names[-1]} (index {len(base) - 1}) was removed" in str(caught.value)


@then(parsers.parse("the check fails saying {name} changed shape without a new schema version"))
def fails_shape(world: World, name: str) -> None:
    with pytest.raises(SchemaParityError) as caught:
        generate(*world.changed())
    assert f"{name} changed shape without a new schema version (still v1)" in caught.value.problems


@then("a stored version 1 JobHidden payload decodes as version 2")
def upcast(world: World) -> None:
    payload = msgspec.json.encode({"jobId": "j", "reason": "r", "hiddenAt": "2026-01-01T00:00:00Z"})
    assert world.candidate is not None
    event = world.candidate.decode_payload("JobHidden", payload, 1)
    assert event == JobHiddenV2(job_id="j", reason="r", hidden_at="2026-01-01T00:00:00Z", hidden_by="unknown")


@then("regenerating the artefacts succeeds")
def regenerate(world: World) -> None:
    written = generate(*world.changed())
    assert "JobHidden.schema.json" in written
    check(*world.changed())


@then("regenerating the artefacts succeeds and PipelineStepQueued names the new type")
def regenerate_renamed(world: World) -> None:
    candidate, target = world.changed()
    written = generate(candidate, target)
    assert written == ["PipelineStepQueued.schema.json", "events.d.ts"]
    schema = (target / "PipelineStepQueued.schema.json").read_text()
    assert '"#/$defs/RenamedRef"' in schema and "ExecutionRefPayload" not in schema
    check(candidate, target)
