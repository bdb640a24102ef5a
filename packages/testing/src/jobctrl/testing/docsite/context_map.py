"""The context map, read from the code.

* **Publishes**: a context's ``jobctrl.<context>.events.EVENTS`` (the tuple the registry assembles).
* **Reads**: the event classes of *another* context that a context's source imports by name
  (``from jobctrl.<other>.events import X``) — the only cross-context import the independence
  contract allows (``jobctrl.** -> jobctrl.*.events``).  Value types such as enums that an events
  module also exports are not events and are not counted.
* **Projections**: every ``Projection`` in ``jobctrl.projections.OPERATIONS``, its tables and the
  event types its folds take, grouped by the publishing context.
* **Owns**: the ``Aggregate`` subclasses (with their stream prefixes) and the SQL tables defined in
  the context's modules, found by importing them.
* **Runtime**: which contexts ``jobctrl.runtime`` imports (its composition root reaches them only
  through their public faces).
* **Contracts**: the import-linter contracts in the workspace ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

CONTEXTS: tuple[str, ...] = (
    "discovery",
    "enrichment",
    "scoring",
    "materials",
    "apply",
    "contact",
    "orchestration",
)


def workspace_root() -> Path:
    """The workspace root: the nearest parent holding a ``pyproject.toml`` with a uv workspace."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "pyproject.toml"
        if candidate.exists() and "[tool.uv.workspace]" in candidate.read_text():
            return parent
    raise RuntimeError("workspace root not found above " + str(here))


@dataclass(frozen=True)
class ContextFacts:
    name: str
    summary: str
    publishes: tuple[str, ...]
    reads: dict[str, tuple[str, ...]]  # publishing context -> event types read from it
    types_from: tuple[str, ...]  # contexts whose events module lends value types (enums, Structs)
    aggregates: tuple[str, ...]  # "Class (stream-prefix-*)", found by importing the context
    tables: tuple[str, ...]  # SQL tables the context declares beside job_events
    upcasters: tuple[str, ...]


@dataclass(frozen=True)
class ProjectionFacts:
    name: str
    tables: tuple[str, ...]
    reads: dict[str, tuple[str, ...]]  # publishing context -> event types folded


@dataclass(frozen=True)
class Contract:
    name: str
    kind: str
    detail: str


@dataclass(frozen=True)
class ContextMap:
    contexts: tuple[ContextFacts, ...]
    projections: tuple[ProjectionFacts, ...]
    runtime_uses: tuple[str, ...]
    runtime_reads: dict[str, tuple[str, ...]]
    contracts: tuple[Contract, ...]
    owner_of: dict[str, str] = field(default_factory=dict)  # event type -> publishing context


def _events_module(context: str) -> ModuleType:
    return importlib.import_module(f"jobctrl.{context}.events")


def _package_dir(module: str) -> Path:
    mod = importlib.import_module(module)
    paths = list(getattr(mod, "__path__", []))
    if not paths:
        raise RuntimeError(f"{module} is not a package")
    return Path(paths[0])


def _python_files(root: Path) -> Iterator[Path]:
    yield from sorted(p for p in root.rglob("*.py") if "tests" not in p.parts)


def _referenced_names(files: Iterable[Path], source_context: str) -> tuple[dict[str, set[str]], set[str]]:
    """What ``files`` take from other contexts' events modules, and every string constant they hold.

    Returns ``({context: {imported name, ...}}, {string constant, ...})``: a context reads another's
    event either by importing its class from ``jobctrl.<other>.events`` or by naming its
    ``eventType`` (a registry name) when it reads the log.
    """
    imported: dict[str, set[str]] = {}
    strings: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            parts = node.module.split(".")
            # ``jobctrl.<context>.events`` or one of its submodules (an events package split by family)
            if len(parts) >= 3 and parts[0] == "jobctrl" and parts[2] == "events" and parts[1] in CONTEXTS:
                if parts[1] == source_context:
                    continue
                imported.setdefault(parts[1], set()).update(alias.name for alias in node.names)
    return imported, strings


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    return " ".join(doc.strip().split("\n\n")[0].split()).replace("``", "`")


def _contracts(root: Path) -> tuple[Contract, ...]:
    config = tomllib.loads((root / "pyproject.toml").read_text())
    out: list[Contract] = []
    for raw in config.get("tool", {}).get("importlinter", {}).get("contracts", []):
        kind = str(raw.get("type", ""))
        if kind == "independence":
            detail = "independent: " + ", ".join(f"`{m}`" for m in raw.get("modules", []))
            allowed = raw.get("ignore_imports", [])
            if allowed:
                detail += "; allowed: " + ", ".join(f"`{a}`" for a in allowed)
        elif kind == "forbidden":
            detail = (
                ", ".join(f"`{m}`" for m in raw.get("source_modules", []))
                + " must not import "
                + ", ".join(f"`{m}`" for m in raw.get("forbidden_modules", []))
            )
        elif kind == "layers":
            detail = "layers, top to bottom: " + " > ".join(f"`{m}`" for m in raw.get("layers", []))
        else:
            detail = ", ".join(f"{k}={v!r}" for k, v in raw.items() if k not in ("name", "type"))
        out.append(Contract(name=str(raw.get("name", "")), kind=kind, detail=detail))
    return tuple(out)


def _reads(
    package: str, context: str, owner_of: dict[str, str], class_names: dict[str, str]
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """Events of other contexts that ``package`` reads, by context, and whose value types it shares."""
    imported, strings = _referenced_names(_python_files(_package_dir(package)), context)
    names = {class_names[n] for found in imported.values() for n in found if n in class_names}
    names |= {s for s in strings if s in owner_of}
    reads = {
        other: tuple(sorted(n for n in names if owner_of[n] == other))
        for other in CONTEXTS
        if other != context
    }
    types_from = tuple(
        sorted(other for other, found in imported.items() if any(n not in class_names for n in found))
    )
    return {k: v for k, v in reads.items() if v}, types_from


def _owned(context: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The aggregates (with their stream prefixes) and the SQL tables a context's modules define."""
    import sqlalchemy as sa  # noqa: PLC0415

    from jobctrl.kernel.aggregate import Aggregate  # noqa: PLC0415

    package = f"jobctrl.{context}"
    modules = []
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, prefix=f"{package}."):
        if ".tests" not in info.name and not info.name.endswith("__main__"):
            modules.append(importlib.import_module(info.name))
    aggregates: dict[str, str] = {}
    tables: set[str] = set()
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Aggregate)
                and value is not Aggregate
                and value.__module__.startswith(package + ".")
            ):
                prefix = getattr(value, "stream_prefix", "")
                aggregates[value.__qualname__] = (
                    f"{value.__qualname__} (`{prefix}-…`)" if prefix else value.__qualname__
                )
            if isinstance(value, sa.Table) and module.__name__.startswith(package + "."):
                tables.add(value.name)
    return tuple(aggregates[k] for k in sorted(aggregates)), tuple(sorted(tables))


def build_context_map() -> ContextMap:
    from jobctrl.projections import OPERATIONS  # noqa: PLC0415 - heavy import, only when asked

    owner_of: dict[str, str] = {}
    published: dict[str, tuple[str, ...]] = {}
    for context in CONTEXTS:
        names = tuple(cls.event_type for cls in _events_module(context).EVENTS)
        published[context] = names
        for name in names:
            owner_of[name] = context
    class_names = {cls.__name__: cls.event_type for c in CONTEXTS for cls in _events_module(c).EVENTS}
    contexts: list[ContextFacts] = []
    for context in CONTEXTS:
        module = _events_module(context)
        package = importlib.import_module(f"jobctrl.{context}")
        reads, types_from = _reads(f"jobctrl.{context}", context, owner_of, class_names)
        aggregates, tables = _owned(context)
        contexts.append(
            ContextFacts(
                name=context,
                summary=_first_paragraph(package.__doc__),
                publishes=published[context],
                reads=reads,
                types_from=types_from,
                aggregates=aggregates,
                tables=tables,
                upcasters=tuple(
                    f"{u.event_type} v{u.from_version}→v{u.from_version + 1}"
                    for u in getattr(module, "UPCASTERS", ())
                ),
            )
        )
    projections: list[ProjectionFacts] = []
    for projection in OPERATIONS:
        by_context: dict[str, set[str]] = {}
        for event_type in projection.event_types:
            by_context.setdefault(owner_of.get(event_type, "?"), set()).add(event_type)
        projections.append(
            ProjectionFacts(
                name=projection.name,
                tables=tuple(t.name for t in projection.tables),
                reads={c: tuple(sorted(by_context[c])) for c in CONTEXTS if c in by_context},
            )
        )
    runtime_imports = _imported_modules(_python_files(_package_dir("jobctrl.runtime")))
    runtime_uses = tuple(c for c in CONTEXTS if c in runtime_imports)
    runtime_reads, _ = _reads("jobctrl.runtime", "", owner_of, class_names)
    root = workspace_root()
    return ContextMap(
        contexts=tuple(contexts),
        projections=tuple(projections),
        runtime_uses=runtime_uses,
        runtime_reads=runtime_reads,
        contracts=_contracts(root),
        owner_of=owner_of,
    )


def _imported_modules(files: Iterable[Path]) -> set[str]:
    """Second components of every ``jobctrl.X...`` module imported by ``files``."""
    found: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if len(parts) >= 2 and parts[0] == "jobctrl":
                    found.add(parts[1])
    return found
