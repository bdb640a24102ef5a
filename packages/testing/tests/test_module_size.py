"""The module-size check (part of ``make check``) finds an oversized module and excepts generated ones."""

from __future__ import annotations

from pathlib import Path

from jobctrl.testing.module_size import LIMIT, main, oversized


def _module(root: Path, rel: str, lines: int) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n" * lines)


def test_a_module_over_the_limit_is_reported_and_generated_files_are_excepted(tmp_path: Path) -> None:
    _module(tmp_path, "contexts/demo/src/jobctrl/demo/big.py", LIMIT + 1)
    _module(tmp_path, "contexts/demo/src/jobctrl/demo/fine.py", LIMIT)
    _module(tmp_path, "packages/domain-types/src/jobctrl/domain_types/generated.py", LIMIT * 3)
    _module(tmp_path, "projections/src/jobctrl/projections/migrations/versions/p0001.py", LIMIT * 2)
    assert oversized(tmp_path) == [("contexts/demo/src/jobctrl/demo/big.py", LIMIT + 1)]
    assert main([str(tmp_path)]) == 1


def test_hand_written_test_modules_are_held_to_the_same_limit(tmp_path: Path) -> None:
    _module(tmp_path, "features/demo/conftest.py", LIMIT + 1)
    _module(tmp_path, "features/demo/steps_fine.py", LIMIT)
    _module(tmp_path, "packages/kernel/tests/test_big.py", LIMIT + 2)
    _module(tmp_path, "contexts/demo/tests/data/helper.py", LIMIT + 3)
    _module(tmp_path, "projections/tests/test_fine.py", LIMIT)
    _module(tmp_path, "packages/domain-types/tests/test_generated_cases.py", LIMIT * 2)
    assert sorted(oversized(tmp_path)) == [
        ("contexts/demo/tests/data/helper.py", LIMIT + 3),
        ("features/demo/conftest.py", LIMIT + 1),
        ("packages/kernel/tests/test_big.py", LIMIT + 2),
    ]
    assert main([str(tmp_path)]) == 1


def test_the_workspace_has_no_module_over_the_limit() -> None:
    root = Path(__file__).resolve().parents[3]
    assert oversized(root) == []
