"""``python -m jobctrl.testing.context_shape``: every bounded context has the same shape (ADR 0120).

A context's package (``contexts/<name>/src/jobctrl/<name>/``) holds ``__init__.py`` (its public face,
with an ``__all__``), ``events.py`` or an ``events/`` package, ``domain/``, ``use_cases/``,
``ports.py``, ``adapters/`` and ``activities.py``.  ``PENDING`` names the contexts still converging
(ADR 0185); the list only shrinks.  Exits 1 listing what each context lacks.
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
PENDING: frozenset[str] = frozenset({"orchestration"})


def _has(package: Path, name: str, is_package: bool | None) -> bool:
    if is_package is None:
        return (package / f"{name}.py").is_file() or (package / name / "__init__.py").is_file()
    if is_package:
        return (package / name / "__init__.py").is_file()
    return (package / name).is_file()


def missing(package: Path) -> list[str]:
    """What ``package`` (a context's ``jobctrl/<name>`` directory) lacks of the shape."""
    lacks = [name for name, is_package in REQUIRED if not _has(package, name, is_package)]
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
