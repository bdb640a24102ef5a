"""Run the tutorials' code blocks as tests (Sybil; ADR 0171).

A tutorial is a Markdown page a newcomer follows in a scratch folder of their clone.  Its fenced
blocks are of three kinds, and this module gives each one an evaluator:

* a block with a ``title="NAME"`` (```` ```python title="shortlist.py" ````) is a file the reader
  creates: it is written, as it stands, into the document's scratch folder;
* a ``bash`` block holds the commands the reader types.  ``make install``, ``mkdir`` and ``cd``
  lines set up the workspace and the scratch folder (installed already, and a temporary folder,
  here); ``uv run --all-packages --locked python -m pytest ...`` is
  run in it with this interpreter and the workspace's pytest configuration (``-c pyproject.toml``),
  exactly as the reader's ``uv run`` would, and must pass with no test skipped or failed.  Any other
  command fails the example, so a tutorial cannot ask for a step the suite does not run;
* a plain ``python`` block is executed in the document's namespace.

Every page gets a fresh scratch folder, removed afterwards; nothing is written into the repository.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from sybil import Document, Example, Region, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from jobctrl.testing.docsite.context_map import workspace_root

_INFO = re.compile(r'(?P<language>[\w-]+)(?:[ \t]+title="(?P<title>[^"]+)")?[ \t]*$\n', re.MULTILINE)
PYTEST_PREFIX = ("uv", "run", "--all-packages", "--locked", "python", "-m", "pytest")
_SETUP_COMMANDS = ("mkdir", "cd")
# A guard against a hung child, not a performance assertion: a tutorial scenario takes seconds.
CHILD_TIMEOUT_S = 600


class TutorialError(AssertionError):
    """A tutorial block did not do what the page says it does."""


def _scratch(example: Example) -> Path:
    folder = example.namespace.get("scratch")
    if not isinstance(folder, Path):
        raise TutorialError("no scratch folder: the Sybil setup did not run")
    return folder


def write_file(example: Example) -> None:
    title = str(example.region.lexemes["title"])
    relative = PurePosixPath(title)
    if relative.is_absolute() or ".." in relative.parts:
        raise TutorialError(f"a tutorial file must stay in the scratch folder: {title}")
    path = _scratch(example) / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(str(example.parsed))


def run_pytest(args: list[str], cwd: Path) -> str:
    """``python -m pytest ARGS`` in ``cwd`` with the workspace's configuration; returns its output."""
    root = workspace_root()
    command = [
        sys.executable,
        "-m",
        "pytest",
        *args,
        "-c",
        str(root / "pyproject.toml"),
        "--rootdir",  # as for the reader, whose scratch folder is inside the clone
        str(root),
        "-p",
        "no:cacheprovider",
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, check=False
    )
    output = done.stdout + done.stderr
    summary = output.strip().splitlines()[-1] if output.strip() else ""
    if done.returncode != 0 or " passed" not in summary or re.search(r"skipped|xfail|deselected", summary):
        raise TutorialError(f"`pytest {' '.join(args)}` did not pass cleanly:\n{output[-6000:]}")
    return output


def run_commands(example: Example) -> None:
    for raw in str(example.parsed).splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        for part in (p.strip() for p in line.split("&&")):
            words = shlex.split(part)
            if not words or words[0] in _SETUP_COMMANDS or words[:2] == ["make", "install"]:
                continue  # the scratch folder is made for the page; the suite runs installed
            if tuple(words[: len(PYTEST_PREFIX)]) == PYTEST_PREFIX:
                example.namespace["last_pytest_output"] = run_pytest(
                    words[len(PYTEST_PREFIX) :], _scratch(example)
                )
                continue
            raise TutorialError(f"the tutorial runner does not run {part!r}: keep tutorials runnable")


class TutorialBlockParser:
    """Regions for every fenced block of a tutorial page, each with its evaluator."""

    def __init__(self) -> None:
        self.lexer = RawFencedCodeBlockLexer(info_pattern=_INFO)
        self.python = PythonEvaluator()

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self.lexer(document):
            language = region.lexemes.get("language")
            region.parsed = region.lexemes["source"]
            if region.lexemes.get("title"):
                region.evaluator = write_file
            elif language == "bash":
                region.evaluator = run_commands
            elif language == "python":
                region.evaluator = self.python
            else:
                continue
            yield region


def _setup(namespace: dict[str, Any]) -> None:
    namespace["scratch"] = Path(tempfile.mkdtemp(prefix="jobctrl-tutorial-"))


def _teardown(namespace: dict[str, Any]) -> None:
    shutil.rmtree(namespace["scratch"], ignore_errors=True)


def tutorial_sybil(docs: Path, patterns: tuple[str, ...] = ("tutorials/*.md",)) -> Sybil:
    """The Sybil that collects the tutorials under ``docs`` (an absolute path: Sybil would otherwise
    resolve it against the file that calls it)."""
    return Sybil(
        parsers=[TutorialBlockParser()],
        path=str(docs.resolve()),
        patterns=list(patterns),
        setup=_setup,
        teardown=_teardown,
    )
