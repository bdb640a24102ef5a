"""Generate and check the language-neutral artefacts of the registry.

``generate`` writes, under ``packages/domain-types/src/events/``:

* ``<EventType>.schema.json`` — a JSON Schema per event payload (camelCase, as on the wire);
* ``registry.json`` — the ordered names with their schema versions;
* ``events.d.ts`` — TypeScript declarations for web clients.

``check`` fails when those files are stale, when the registry removed or reordered an entry that
``registry.json`` had, or when an event's shape changed while its schema version stayed the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.registry import EventRegistry

EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"
REGISTRY_FILE = "registry.json"
TS_FILE = "events.d.ts"


class SchemaParityError(JobCtrlError):
    code = "schema_parity"
    retryable = False

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def event_schema(registry: EventRegistry, name: str) -> dict[str, Any]:
    cls = registry.class_for(name)
    raw = msgspec.json.schema(cls)
    defs: dict[str, Any] = raw.get("$defs", {})
    root = defs.pop(cls.__name__) if "$ref" in raw else raw
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://jobctrl.dev/schemas/events/{name}.schema.json",
        "title": name,
        "x-eventType": name,
        "x-schemaVersion": cls.schema_version,
        "x-registryIndex": registry.index_of(name),
        **{k: v for k, v in root.items() if k != "title"},
    }
    if defs:
        schema["$defs"] = defs
    result: dict[str, Any] = json.loads(json.dumps(schema).replace(f'"#/$defs/{cls.__name__}"', '"#"'))
    return result


def registry_document(registry: EventRegistry) -> dict[str, Any]:
    return {
        "description": "JobCtrl event registry: append-only, in canonical order.",
        "events": [
            {"index": i, "name": n, "schemaVersion": registry.class_for(n).schema_version}
            for i, n in enumerate(registry.names)
        ],
    }


def render(registry: EventRegistry) -> dict[str, str]:
    """Every generated file, by file name."""
    files = {f"{n}.schema.json": _dump(event_schema(registry, n)) for n in registry.names}
    files[REGISTRY_FILE] = _dump(registry_document(registry))
    files[TS_FILE] = typescript(registry)
    return files


def generate(registry: EventRegistry, target: Path = EVENTS_DIR) -> list[str]:
    """Write the artefacts (after checking the append-only rule) and return the names written."""
    problems = _history_problems(registry, target)
    if problems:
        raise SchemaParityError(problems)
    target.mkdir(parents=True, exist_ok=True)
    files = render(registry)
    for stale in set(p.name for p in target.iterdir() if p.is_file()) - set(files):
        (target / stale).unlink()
    written = []
    for name, content in files.items():
        path = target / name
        if not path.exists() or path.read_text() != content:
            path.write_text(content)
            written.append(name)
    return written


def check(registry: EventRegistry, target: Path = EVENTS_DIR) -> None:
    problems = _history_problems(registry, target)
    files = render(registry)
    present = {p.name for p in target.iterdir() if p.is_file()} if target.exists() else set()
    for name in sorted(set(files) - present):
        problems.append(f"{name} is missing (run `jobctrl schemas generate`)")
    for name in sorted(present - set(files)):
        problems.append(f"{name} is not generated from the registry")
    for name in sorted(set(files) & present):
        if (target / name).read_text() != files[name]:
            problems.append(f"{name} is stale (run `jobctrl schemas generate`)")
    if problems:
        raise SchemaParityError(problems)


def _history_problems(registry: EventRegistry, target: Path) -> list[str]:
    """The append-only rule against the committed registry.json and schemas."""
    path = target / REGISTRY_FILE
    if not path.exists():
        return []
    committed = json.loads(path.read_text())["events"]
    problems: list[str] = []
    names = registry.names
    for entry in committed:
        index, name, version = entry["index"], entry["name"], entry["schemaVersion"]
        if name not in registry:
            problems.append(f"{name} (index {index}) was removed from the registry")
            continue
        if index >= len(names) or names[index] != name:
            problems.append(f"{name} moved from index {index} to {registry.index_of(name)}")
            continue
        current_version = registry.class_for(name).schema_version
        if current_version < version:
            problems.append(f"{name} schema version went back from {version} to {current_version}")
        elif current_version == version:
            schema_file = target / f"{name}.schema.json"
            if schema_file.exists():
                old = json.loads(schema_file.read_text())
                new = event_schema(registry, name)
                if _shape(old) != _shape(new):
                    problems.append(f"{name} changed shape without a new schema version (still v{version})")
    return problems


_BOOKKEEPING = ("x-registryIndex", "$id", "description", "$defs")


def _shape(schema: dict[str, Any]) -> Any:
    """What a schema says about data: prose (descriptions), bookkeeping keys and the names of its
    ``$defs`` do not count: a nested payload type is compared by its fields, inlined where it is
    used, so renaming the type (its ``$defs`` key and ``title``) changes no shape (ADR 0265)."""
    defs: dict[str, Any] = schema.get("$defs", {})

    def walk(node: Any, inside: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(v, inside) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            if name in inside or name not in defs:  # a recursive type: its name is all there is
                return {"$ref": "recursive" if name in inside else ref}
            return walk({k: v for k, v in defs[name].items() if k != "title"}, (*inside, name))
        return {k: walk(v, inside) for k, v in node.items() if k not in _BOOKKEEPING}

    return walk(schema, ())


# -- TypeScript ---------------------------------------------------------------------------------
def _ts_type(node: dict[str, Any], defs_prefix: str) -> str:
    if "$ref" in node:
        ref = node["$ref"]
        return defs_prefix if ref == "#" else ref.rsplit("/", 1)[-1]
    if "anyOf" in node:
        return " | ".join(_ts_type(n, defs_prefix) for n in node["anyOf"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    kind = node.get("type")
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        return f"Array<{_ts_type(node.get('items', {}), defs_prefix)}>"
    if kind == "object":
        if "properties" in node:
            return _ts_object(node, defs_prefix)
        return "Record<string, unknown>"
    return "unknown"


def _ts_object(node: dict[str, Any], defs_prefix: str) -> str:
    required = set(node.get("required", []))
    lines = [
        f"  {key}{'' if key in required else '?'}: {_ts_type(prop, defs_prefix)};"
        for key, prop in node.get("properties", {}).items()
    ]
    return "{\n" + "\n".join(lines) + "\n}"


def typescript(registry: EventRegistry) -> str:
    out = [
        "// GENERATED by `jobctrl schemas generate` from the Python event registry. Do not edit.",
        "",
    ]
    shared: dict[str, str] = {}
    for name in registry.names:
        schema = event_schema(registry, name)
        for def_name, def_node in schema.get("$defs", {}).items():
            shared.setdefault(def_name, _ts_type(def_node, def_name))
        out.append(f"export interface {name}Payload {_ts_object(schema, name + 'Payload')}")
        out.append("")
    for def_name, body in sorted(shared.items()):
        out.append(f"export type {def_name} = {body};")
        out.append("")
    names = ", ".join(json.dumps(n) for n in registry.names)
    out.append(f"export declare const JOBCTRL_EVENT_TYPES: readonly [{names}];")
    out.append("export type JobCtrlEventType = (typeof JOBCTRL_EVENT_TYPES)[number];")
    out.append("export interface JobCtrlPayloads {")
    out.extend(f"  {n}: {n}Payload;" for n in registry.names)
    out.append("}")
    out.append("export interface JobCtrlEnvelope<T extends JobCtrlEventType = JobCtrlEventType> {")
    out.append(
        "  eventType: T;\n  tenantId: string;\n  occurredAt: string;\n  payload: JobCtrlPayloads[T];\n}"
    )
    return "\n".join(out) + "\n"
