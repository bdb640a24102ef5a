"""``python -m jobctrl.testing.module_size``: no hand-written module over 400 lines (ADR 0120, 0335).

Checks every ``*.py`` under the workspace's ``src`` trees (packages, contexts, projections) and every
hand-written test module: the feature steps (``features/**``) and each package's tests
(``**/tests/**``).  Excepted: generated files (``packages/domain-types``) and frozen migrations
(``migrations/versions``).  Exits 1 listing each module over the limit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

LIMIT = 400
ROOTS = ("packages", "contexts", "projections")
# (top-level folder, pattern below it): the source trees, then the hand-written test modules.
TREES = (
    *((top, "**/src/**/*.py") for top in ROOTS),
    *((top, "**/tests/**/*.py") for top in ROOTS),
    ("features", "**/*.py"),
)
EXCEPTED = ("packages/domain-types/", "/migrations/versions/")


def modules(root: Path) -> Iterator[Path]:
    seen: set[Path] = set()
    for top, pattern in TREES:
        for path in sorted((root / top).glob(pattern)):
            rel = path.relative_to(root).as_posix()
            if path in seen or ".venv" in path.parts or any(part in rel for part in EXCEPTED):
                continue
            seen.add(path)
            yield path


def oversized(root: Path, limit: int = LIMIT) -> list[tuple[str, int]]:
    found = []
    for path in modules(root):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append((path.relative_to(root).as_posix(), lines))
    return found


def main(argv: list[str] | None = None) -> int:
    root = Path(argv[0] if argv else ".").resolve()
    found = oversized(root)
    for rel, lines in found:
        print(f"{rel}: {lines} lines (limit {LIMIT}); split it by concern", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
