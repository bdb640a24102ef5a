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


SERVICE = """
class StageService:
    def __init__(self, store, *, clock=None) -> None:
        self.store = store

    def load(self, job_id): ...

    def run(self, job_id, command): ...
"""
COMMANDS = """
from dataclasses import dataclass


@dataclass(frozen=True)
class CorrectScore:
    job_id: str

    def describe(self) -> str: ...

    def other(self) -> str: ...


@dataclass(frozen=True)
class RunLog:
    store: object

    def start(self) -> None: ...


def correct_score(command, *, store, clock) -> int: ...
"""


def test_a_service_class_in_use_cases_is_reported_and_commands_pass(tmp_path: Path) -> None:
    served = _context(tmp_path, "served", *SHAPE)
    (served / "use_cases" / "stage_service.py").write_text(SERVICE)
    (served / "use_cases" / "correct_score.py").write_text(COMMANDS)
    assert misshapen(tmp_path, pending=frozenset()) == {
        "served": [
            "use_cases/stage_service.StageService is a service class (one command per module, ADR 0320)"
        ]
    }
