"""``python -m jobctrl.testing.context_shape``: every bounded context has the same shape (ADR 0120).

A context's package (``contexts/<name>/src/jobctrl/<name>/``) holds ``__init__.py`` (its public face,
with an ``__all__``), ``events.py`` or an ``events/`` package, ``domain/``, ``use_cases/``,
``ports.py``, ``adapters/`` and ``activities.py``.  ``PENDING`` named the contexts still converging
(ADR 0185); since orchestration took the shape (ADR 0267) it is empty and stays so: every context is
checked.  Exits 1 listing what each context lacks.
"""

from __future__ import annotations

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


def missing(package: Path) -> list[str]:
    """What ``package`` (a context's ``jobctrl/<name>`` directory) lacks of the shape, and what it
    holds outside it."""
    lacks = [name for name, is_package in REQUIRED if not _has(package, name, is_package)]
    shape = {name for name, _ in REQUIRED} | {"events.py"}
    allowed = shape | _ALWAYS | EXTRAS.get(package.name, frozenset())
    for entry in sorted(p.name for p in package.iterdir()) if package.is_dir() else ():
        if entry not in allowed:
            lacks.append(f"{entry} outside the shape (domain/, use_cases/ or adapters/?)")
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
