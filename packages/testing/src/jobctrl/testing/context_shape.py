"""``python -m jobctrl.testing.context_shape``: every bounded context has the same shape (ADR 0120).

A context's package (``contexts/<name>/src/jobctrl/<name>/``) holds ``__init__.py`` (its public face,
with an ``__all__``), ``events.py`` or an ``events/`` package, ``domain/``, ``use_cases/``,
``ports.py``, ``adapters/`` and ``activities.py``.  ``PENDING`` named the contexts still converging
(ADR 0185); since orchestration took the shape (ADR 0267) it is empty and stays so: every context is
checked.  ``use_cases/`` holds one command per module (ADR 0320): a public class there that holds the
store and offers two or more operations is a service object, not a command, and is reported (a port's
implementation over the use cases belongs in ``adapters/``).  Exits 1 listing what each context lacks.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: (name, is a package) — ``events`` may be either a module or a package.
REQUIRED: tuple[tuple[str, bool | None], ...] = (
    ("__init__.py", False),
    ("events", None),
    ("domain", True),
    ("use_cases", True),
    ("ports.py", False),
    ("adapters", True),
    ("activities.py", False),
)
PENDING: frozenset[str] = frozenset()
#: What a context may hold beside the shape, and why; anything else at its top level is reported.
EXTRAS: dict[str, frozenset[str]] = {
    # the Temporal workflows (deterministic, run in the sandbox) and the stage machine's JSON face,
    # whose import path external parity checks call (ADR 0267)
    "orchestration": frozenset({"workflows", "stage_machine.py"}),
    # the offline sample boards the demo and the tests crawl
    "discovery": frozenset({"sample_board"}),
}
_ALWAYS = frozenset({"py.typed", "__pycache__"})


def _has(package: Path, name: str, is_package: bool | None) -> bool:
    if is_package is None:
        return (package / f"{name}.py").is_file() or (package / name / "__init__.py").is_file()
    if is_package:
        return (package / name / "__init__.py").is_file()
    return (package / name).is_file()


def _holds_store(cls: ast.ClassDef) -> bool:
    """A field ``store`` (a dataclass) or an ``__init__`` taking ``store``."""
    fields = {
        n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    params = {a.arg for init in inits for a in init.args.args + init.args.kwonlyargs}
    return "store" in fields | params


def _operations(cls: ast.ClassDef) -> list[str]:
    decorated = {"property", "staticmethod", "classmethod"}
    return [
        node.name
        for node in cls.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
        and not decorated & {ast.unparse(d) for d in node.decorator_list}
    ]


def service_classes(use_cases: Path) -> list[str]:
    """``module.Class`` for each public class in ``use_cases`` holding the store with two or more
    operations: a service object where the shape wants one command per module."""
    found = []
    for module in sorted(use_cases.glob("*.py")) if use_cases.is_dir() else ():
        tree = ast.parse(module.read_text(encoding="utf-8"))
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")]
        found += [f"{module.stem}.{c.name}" for c in classes if _holds_store(c) and len(_operations(c)) >= 2]
    return found


def missing(package: Path) -> list[str]:
    """What ``package`` (a context's ``jobctrl/<name>`` directory) lacks of the shape, and what it
    holds outside it."""
    lacks = [name for name, is_package in REQUIRED if not _has(package, name, is_package)]
    shape = {name for name, _ in REQUIRED} | {"events.py"}
    allowed = shape | _ALWAYS | EXTRAS.get(package.name, frozenset())
    for entry in sorted(p.name for p in package.iterdir()) if package.is_dir() else ():
        if entry not in allowed:
            lacks.append(f"{entry} outside the shape (domain/, use_cases/ or adapters/?)")
    for name in service_classes(package / "use_cases"):
        lacks.append(f"use_cases/{name} is a service class (one command per module, ADR 0320)")
    init = package / "__init__.py"
    if init.is_file() and "__all__" not in init.read_text(encoding="utf-8"):
        lacks.append("__init__.py exports (__all__)")
    return lacks


def misshapen(root: Path, pending: frozenset[str] = PENDING) -> dict[str, list[str]]:
    found = {}
    for context in sorted(p for p in (root / "contexts").iterdir() if p.is_dir()):
        if context.name in pending:
            continue
        lacks = missing(context / "src" / "jobctrl" / context.name)
        if lacks:
            found[context.name] = lacks
    return found


def main(argv: list[str] | None = None) -> int:
    root = Path(argv[0] if argv else ".").resolve()
    found = misshapen(root)
    for context, lacks in found.items():
        print(
            f"contexts/{context}: lacks {', '.join(lacks)} (the shape of a context, ADR 0120)",
            file=sys.stderr,
        )
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
