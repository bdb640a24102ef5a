"""The context-shape check (in ``make check``) reports what a context lacks and passes the shaped ones."""

from __future__ import annotations

from pathlib import Path

from jobctrl.testing.context_shape import PENDING, main, misshapen


def _context(root: Path, name: str, *entries: str) -> Path:
    package = root / "contexts" / name / "src" / "jobctrl" / name
    package.mkdir(parents=True)
    for entry in entries:
        path = package / entry
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('__all__ = ["x"]\n')
    return package


SHAPE = (
    "__init__.py", "events.py", "domain/__init__.py", "use_cases/__init__.py", "ports.py",
    "adapters/__init__.py", "activities.py",
)  # fmt: skip


def test_a_context_lacking_part_of_the_shape_is_reported(tmp_path: Path) -> None:
    _context(tmp_path, "shaped", *SHAPE)
    _context(tmp_path, "evented", *[e for e in SHAPE if e != "events.py"], "events/__init__.py")
    flat = _context(tmp_path, "flat", "__init__.py", "events.py", "activities.py", "aggregate.py")
    (flat / "__init__.py").write_text('"""no exports"""\n')
    _context(tmp_path, "extra", *SHAPE, "stages/__init__.py", "tables.py")
    assert misshapen(tmp_path, pending=frozenset()) == {
        "flat": [
            "domain", "use_cases", "ports.py", "adapters",
            "aggregate.py outside the shape (domain/, use_cases/ or adapters/?)",
            "__init__.py exports (__all__)",
        ],
        "extra": [
            "stages outside the shape (domain/, use_cases/ or adapters/?)",
            "tables.py outside the shape (domain/, use_cases/ or adapters/?)",
        ],
    }  # fmt: skip
    assert misshapen(tmp_path, pending=frozenset({"flat", "extra"})) == {}
    assert main([str(tmp_path)]) == 1


def test_every_context_has_the_shape_and_none_is_pending() -> None:
    root = Path(__file__).resolve().parents[3]
    assert frozenset() == PENDING
    assert misshapen(root) == {}
