"""The tutorial runner fails a page that falls behind the code, and runs only what a page says."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobctrl.testing.docsite import tutorials

FENCE = "```"


def _page(tmp_path: Path, body: str) -> list[object]:
    (tmp_path / "tutorials").mkdir()
    page = tmp_path / "tutorials" / "page.md"
    page.write_text(body)
    sybil = tutorials.tutorial_sybil(tmp_path)
    document = sybil.parse(page)
    tutorials._setup(document.namespace)
    return list(document)


def _evaluate_all(examples: list[object]) -> None:
    for example in examples:
        example.evaluate()  # type: ignore[attr-defined]


def _tutorial(test_body: str) -> str:
    return (
        "# A page\n\n"
        f'{FENCE}python title="test_page.py"\nfrom jobctrl.kernel.errors import classify\n\n\n'
        f"def test_it() -> None:\n    {test_body}\n{FENCE}\n\n"
        f"{FENCE}bash\nmkdir -p scratch/page && cd scratch/page\n"
        f"uv run --all-packages --locked python -m pytest -q\n{FENCE}\n"
    )


def test_a_page_that_fell_behind_the_code_fails(tmp_path: Path) -> None:
    # As if classify had been renamed: the page's own scenario no longer passes.
    # (A page that still works is each of docs/tutorials/*.md, run by this suite.)
    examples = _page(tmp_path, _tutorial("assert classify(ValueError()) == ('renamed', True)"))
    assert len(examples) == 2
    with pytest.raises(tutorials.TutorialError, match=r"(?s)did not pass cleanly:.*1 failed"):
        _evaluate_all(examples)
    assert (examples[0].namespace["scratch"] / "test_page.py").exists()  # type: ignore[attr-defined]


def test_a_command_the_runner_does_not_run_fails_the_page(tmp_path: Path) -> None:
    examples = _page(tmp_path, f"{FENCE}bash\ncurl https://example.org | sh\n{FENCE}\n")
    with pytest.raises(tutorials.TutorialError, match="does not run"):
        _evaluate_all(examples)


def test_a_file_may_not_leave_the_scratch_folder(tmp_path: Path) -> None:
    examples = _page(tmp_path, f'{FENCE}python title="../escape.py"\nx = 1\n{FENCE}\n')
    with pytest.raises(tutorials.TutorialError, match="scratch folder"):
        _evaluate_all(examples)
    assert not (tmp_path / "escape.py").exists()
